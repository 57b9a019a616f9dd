//! Xiangqi: placeholder until the module lands.
