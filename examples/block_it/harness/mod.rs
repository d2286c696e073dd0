//! The harness: what runs the game and watches it from outside its rules.
//! - `app.rs`: the game on an app, and the headless app;
//! - `cli.rs`: the command line, and loading the room and replay it names;
//! - `headless.rs`: `--headless`, its progress and its summary;
//! - `replay.rs`: `--record` and `--replay`;
//! - `window.rs`: a game in a window, and `--screenshot`.

pub mod app;
pub mod cli;
pub mod headless;
pub mod replay;
pub mod window;

#[cfg(test)]
mod cli_tests;
