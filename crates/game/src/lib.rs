//! Game records: placeholder until the crate lands.
pub mod clock;
