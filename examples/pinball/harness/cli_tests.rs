//! Bad input on the pinball program's command line: each bad value is refused with an
//! error that names its flag. (Bad table files: `table/file_tests.rs`.)

use crate::harness::cli::Args;
use clap::Parser;

#[test]
fn seconds_must_be_finite_and_positive() {
    for bad in ["NaN", "inf", "-inf", "-5", "0", "ten"] {
        let e = Args::try_parse_from(["pinball", "--headless", &format!("--seconds={bad}")])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("--seconds"), "{bad}: {e}");
    }
    let args = Args::try_parse_from(["pinball", "--headless", "--seconds", "2.5"]).unwrap();
    assert_eq!(args.seconds, 2.5);
}
