//! What the dot-matrix display shows: during a game the score, the ball and the game's
//! message (scrolling when it is too long); with no game running, the attract mode's
//! pages in turn: the table's name over "PRESS N TO START", the best five scores
//! scrolling up, and the last game's score.

use super::dmd::{DOTS_X, DOTS_Y, DmdFrame, Dot, text_width};
use super::font::GLYPH_H;
use crate::game::highscores::HighScores;
use crate::game::rules::Game;
use crate::table::Table;
use bevy::prelude::*;

/// The big font's scale (the score, the table's name).
const BIG: i32 = 2;
/// The small font's scale.
const SMALL: i32 = 1;
/// Rows from one small line to the next.
const LINE_PITCH: i32 = GLYPH_H + 2;
/// The rows of the in-game lines: the score, the ball, the message.
const SCORE_ROW: i32 = 0;
const BALL_ROW: i32 = 16;
const MESSAGE_ROW: i32 = 25;
/// Speed of scrolling text, dots per second.
const SCROLL_DOTS_PER_SECOND: f32 = 40.0;
/// How long each attract page shows, seconds.
const TITLE_SECONDS: f32 = 3.0;
const SCORES_SECONDS: f32 = 7.0;
const LAST_SCORE_SECONDS: f32 = 3.0;
/// High scores listed.
const LISTED_SCORES: usize = 5;
/// Longest player name shown in the list, characters.
const NAME_CHARS: usize = 8;

/// `n` with a comma between each group of three digits.
#[must_use]
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Compose this frame's picture; the display redraws only when it differs.
pub fn compose(
    time: Res<Time>,
    game: Res<Game>,
    table: Res<Table>,
    scores: Option<Res<HighScores>>,
    mut frame: ResMut<DmdFrame>,
) {
    let mut next = DmdFrame::default();
    let t = time.elapsed_secs();
    if game.game_over {
        let best: Vec<(u64, String)> = scores
            .map(|s| s.entries.iter().map(|e| (e.score, e.by.clone())).collect())
            .unwrap_or_default();
        attract(&mut next, t, &game, &table.def.name, &best);
    } else {
        playing(&mut next, t, &game, table.def.balls_per_game);
    }
    frame.set_if_neq(next);
}

fn playing(f: &mut DmdFrame, t: f32, game: &Game, balls: u32) {
    f.centred(&grouped(game.score), SCORE_ROW, BIG, Dot::On);
    let ball = format!("BALL {} OF {}", game.ball_number.max(1), balls);
    f.centred(&ball, BALL_ROW, SMALL, Dot::Half);
    marquee(f, &game.message, MESSAGE_ROW, t);
}

/// Centred if it fits, else scrolling right to left through the display, over and over.
fn marquee(f: &mut DmdFrame, text: &str, y: i32, t: f32) {
    let width = text_width(text, SMALL);
    if width <= DOTS_X {
        f.centred(text, y, SMALL, Dot::On);
        return;
    }
    let travel = width + DOTS_X;
    let shift = (t * SCROLL_DOTS_PER_SECOND) as i32 % travel;
    f.text(text, (DOTS_X - shift, y), SMALL, Dot::On);
}

/// The attract mode's pages, each for its time, round and round.
fn attract(f: &mut DmdFrame, t: f32, game: &Game, name: &str, best: &[(u64, String)]) {
    let cycle = TITLE_SECONDS + SCORES_SECONDS + LAST_SCORE_SECONDS;
    let at = t % cycle;
    if at < TITLE_SECONDS {
        let scale = if text_width(name, BIG) <= DOTS_X {
            BIG
        } else {
            SMALL
        };
        f.centred(name, 1, scale, Dot::Half);
        f.centred("PRESS N TO START", MESSAGE_ROW - 2, SMALL, Dot::On);
    } else if at < TITLE_SECONDS + SCORES_SECONDS {
        high_scores(f, (at - TITLE_SECONDS) / SCORES_SECONDS, best);
    } else if game.games > 0 {
        f.centred("LAST SCORE", 1, SMALL, Dot::Half);
        f.centred(&grouped(game.score), BALL_ROW - 4, BIG, Dot::On);
    } else {
        f.centred("HIGH SCORE", 1, SMALL, Dot::Half);
        let top = best.first().map_or(game.high_score, |b| b.0);
        f.centred(&grouped(top), BALL_ROW - 4, BIG, Dot::On);
    }
}

/// The best five scores, scrolling up from below the display to above it as `u` goes
/// from 0 to 1.
fn high_scores(f: &mut DmdFrame, u: f32, best: &[(u64, String)]) {
    let mut lines = vec![("HIGH SCORES".to_string(), String::new())];
    for (k, (score, by)) in best.iter().take(LISTED_SCORES).enumerate() {
        let name: String = by.chars().take(NAME_CHARS).collect();
        lines.push((format!("{} {name}", k + 1), grouped(*score)));
    }
    if best.is_empty() {
        lines.push(("NO SCORES YET".into(), String::new()));
    }
    let height = lines.len() as i32 * LINE_PITCH;
    let top = DOTS_Y - (u * (height + DOTS_Y) as f32) as i32;
    for (k, (left, right)) in lines.iter().enumerate() {
        let y = top + k as i32 * LINE_PITCH;
        if right.is_empty() {
            f.centred(left, y, SMALL, Dot::On);
        } else {
            f.text(left, (0, y), SMALL, Dot::Half);
            f.text(right, (DOTS_X - text_width(right, SMALL), y), SMALL, Dot::On);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(250), "250");
        assert_eq!(grouped(5000), "5,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn text_lights_the_font_dots() {
        let mut f = DmdFrame::default();
        f.text("1", (0, 0), 1, Dot::On);
        // The "1": its top dot is in the middle column.
        assert_eq!(f.get(2, 0), Dot::On);
        assert_eq!(f.get(0, 0), Dot::Off);
        let mut big = DmdFrame::default();
        big.text("1", (0, 0), 2, Dot::On);
        assert_eq!((big.get(4, 0), big.get(5, 1)), (Dot::On, Dot::On));
        assert_eq!(text_width("PRESS N TO START", 1), 95);
    }
}
