//! The command line as CI uses it: exit codes for a real screenshot, a blank frame and a
//! missing file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tool() -> Command {
    Command::new(env!("CARGO_BIN_EXE_screenshot_check"))
}

fn docs(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(file)
}

#[test]
fn a_committed_screenshot_passes() {
    let status = tool()
        .args(["check", "--scene", "pinball"])
        .arg(docs("pinball.png"))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_blank_frame_fails_with_exit_code_1() {
    let blank = std::env::temp_dir().join(format!("screenshot_check_cli_{}.png", std::process::id()));
    let written = tool()
        .args(["blank", "--fill", "080910"])
        .arg(&blank)
        .status()
        .unwrap();
    assert!(written.success());
    for scene in ["pinball", "bounce-lab"] {
        let status = tool()
            .args(["check", "--scene", scene])
            .arg(&blank)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{scene}");
    }
    std::fs::remove_file(&blank).ok();
}

#[test]
fn a_missing_file_is_exit_code_2() {
    let status = tool()
        .args(["check", "--scene", "pinball", "/nonexistent/shot.png"])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}
