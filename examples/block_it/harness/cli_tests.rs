//! Bad input on Block it's command line: each bad value is refused with an error that
//! names its flag. (Bad room files: `game/rules_tests.rs`.)
#![allow(clippy::unwrap_used, reason = "tests")]

use crate::harness::cli::Args;
use clap::Parser;

/// The error for `flags`, or "" if they parse.
fn refusal(flags: &[&str]) -> String {
    let argv = std::iter::once("block_it").chain(flags.iter().copied());
    Args::try_parse_from(argv)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn bad_values_are_refused_naming_their_flag() {
    for bad in ["45", "0", "-60", "sixty", "1000"] {
        assert!(refusal(&[&format!("--hz={bad}")]).contains("--hz"), "--hz {bad}");
    }
    for bad in ["NaN", "inf", "-5", "0"] {
        assert!(
            refusal(&["--headless", &format!("--seconds={bad}")]).contains("--seconds"),
            "{bad}"
        );
    }
    assert!(refusal(&["--window", "1280"]).contains("--window"));
    assert!(refusal(&["--record", "a.ron", "--replay", "b.ron"]).contains("--replay"));
    for hz in ["30", "60", "120"] {
        assert_eq!(
            Args::try_parse_from(["block_it", "--hz", hz])
                .unwrap()
                .hz
                .to_string(),
            hz
        );
    }
}
