//! What is wrong with a table file: [`TableError`], which names the first bad field
//! (`flippers[0].length: must be positive and finite, got 0`), and the checks of one
//! field that make it (a finite point, a positive number, a number in a range, a
//! segment). The table's checks (`check.rs`, `layout_check.rs`, `playfield.rs`) are made
//! of these.

use crate::table::point::{P, v};
use std::fmt;

/// Shortest wall segment accepted, mm (shorter ones are typos, not geometry).
const MIN_SEGMENT_MM: f32 = 0.5;

/// What is wrong with a table file.
#[derive(Debug)]
pub enum TableError {
    Read(String, std::io::Error),
    Parse(String),
    Invalid { field: String, problem: String },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read(path, e) => write!(f, "cannot read table file {path}: {e}"),
            Self::Parse(e) => write!(f, "table file does not parse: {e}"),
            Self::Invalid { field, problem } => write!(f, "table field `{field}`: {problem}"),
        }
    }
}

impl std::error::Error for TableError {}

pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> TableError {
    TableError::Invalid {
        field: field.into(),
        problem: problem.into(),
    }
}

pub fn finite_point(field: &str, p: P) -> Result<(), TableError> {
    if p.0.is_finite() && p.1.is_finite() {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("({}, {}) is not a finite point", p.0, p.1),
        ))
    }
}

pub fn positive(field: &str, x: f32) -> Result<(), TableError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be positive and finite, got {x}")))
    }
}

pub fn in_range(field: &str, x: f32, lo: f32, hi: f32) -> Result<(), TableError> {
    if x.is_finite() && (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(invalid(field, format!("must be in {lo}..={hi}, got {x}")))
    }
}

pub fn segment(field: &str, (a, b): (P, P)) -> Result<(), TableError> {
    finite_point(field, a)?;
    finite_point(field, b)?;
    if v(a).distance(v(b)) < MIN_SEGMENT_MM {
        return Err(invalid(field, "end points coincide (zero-length segment)"));
    }
    Ok(())
}
