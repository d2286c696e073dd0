//! The harness: what runs the game and watches it from outside its rules. Each idea has
//! its own file:
//! - `cli.rs`: the command line, and loading the table and replay it names;
//! - `window.rs`: a game in a window with the command line's options;
//! - `headless.rs`: `--headless`, the table and rules without a window;
//! - `summary.rs`: the headless summary;
//! - `replay.rs`: `--record` and `--replay`;
//! - `screenshot.rs`: `--screenshot` and `--screenshot-when`;
//! - `state_out.rs`: `--state-out`;
//! - `trace.rs`: `--trace`.

pub mod cli;
pub mod headless;
pub mod replay;
pub mod screenshot;
pub mod state_out;
pub mod summary;
pub mod trace;
pub mod window;

#[cfg(test)]
mod cli_tests;
