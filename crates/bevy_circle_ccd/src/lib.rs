//! # bevy_circle_ccd
//!
//! The Bevy plugin for [`ccd_core`]. Not written yet: this crate currently re-exports the
//! core math so the workspace layout is in place.
#![warn(missing_docs)]

pub use ccd_core;
