//! Game records: placeholder until the crate lands.
