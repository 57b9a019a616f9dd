//! Makruk: placeholder until the module lands.
