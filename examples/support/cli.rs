//! The games' shared command-line values: a number of seconds and a window size, each
//! refused with a message saying what was expected.

/// A number of seconds: finite and above 0 (NaN, an infinity, 0 or a negative number would
/// never end the run, or end it at once).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(s) => Err(format!("must be a finite number of seconds above 0, got {s}")),
        Err(e) => Err(format!("expected a number of seconds, got `{text}`: {e}")),
    }
}

/// `WIDTHxHEIGHT`, each at least 1.
pub fn parse_window(text: &str) -> Result<(u32, u32), String> {
    let size = text
        .split_once('x')
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
    match size {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => Err(format!("expected WIDTHxHEIGHT such as 1280x720, got `{text}`")),
    }
}
