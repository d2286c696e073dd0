//! Bad table files, hand-made and generated (100,000 mutations of the two shipped
//! tables). Each bad one is refused with an error that names the field; none panics, and
//! none loads with a number that is not finite. (The command line's bad input:
//! `harness/cli_tests.rs`.)

use crate::table::error::TableError;
use crate::table::{TableDef, parse};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");
const STARFALL: &str = include_str!("../../../assets/tables/starfall.ron");

#[test]
fn an_unknown_field_is_refused_by_name() {
    // A typo: `ball_raduis` would silently do nothing if unknown fields were accepted.
    let typo = CLASSIC.replacen("ball_radius: 13.5", "ball_radius: 13.5, ball_raduis: 12.0", 1);
    let e = parse(&typo).unwrap_err().to_string();
    assert!(e.contains("ball_raduis"), "{e}");
    let nested = STARFALL.replacen("nudge_speed:", "nudge_sped: 1.0, nudge_speed:", 1);
    let e = parse(&nested).unwrap_err().to_string();
    assert!(e.contains("nudge_sped"), "{e}");
}

#[test]
fn bad_shape_pieces_are_refused_by_name() {
    // Each added after the classic table's walls: a bow tie, a repeated point, an arc of
    // no span, a path arc of no turn, a capsule of no radius, a box of no width, and an
    // unknown field in a path step.
    let walls = "    walls: [\n";
    for (piece, field, says) in [
        (
            "Polygon([(100.0, 500.0), (120.0, 520.0), (120.0, 500.0), (100.0, 520.0)]),",
            "walls[0]",
            "crosses itself",
        ),
        (
            "Line([(100.0, 500.0), (110.0, 500.0), (110.0, 500.0)]),",
            "walls[0]",
            "zero-length",
        ),
        (
            "Arc(center: (200.0, 500.0), radius: 20.0, from_degrees: 10.0, to_degrees: 10.0),",
            "walls[0]",
            "turn",
        ),
        (
            "Path(from: (100.0, 500.0), steps: [Around(center: (120.0, 500.0), degrees: 0.0)]),",
            "walls[0].steps[0].degrees",
            "no length",
        ),
        (
            "Capsule(a: (100.0, 500.0), b: (120.0, 500.0), radius: 0.0),",
            "walls[0].radius",
            "positive",
        ),
        (
            "Rect(center: (100.0, 500.0), half_size: (0.0, 5.0)),",
            "walls[0].half_size.0",
            "positive",
        ),
        (
            "Path(from: (100.0, 500.0), steps: [To((120.0, 500.0))], closed: true),",
            "closed",
            "",
        ),
    ] {
        let text = CLASSIC.replacen(walls, &format!("{walls}        {piece}\n"), 1);
        assert_ne!(text, CLASSIC, "the walls list was found");
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains(says), "{piece}: {e}");
    }
}

/// Mutations per shipped table.
const MUTATIONS_PER_TABLE: usize = 50_000;

/// Where the numbers of `text` are: byte ranges of each numeric literal, comments left
/// out.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Skip comments: a number there is no number of the table.
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_');
        if starts {
            let begin = if i > 0 && bytes[i - 1] == b'-' { i - 1 } else { i };
            let mut end = i;
            while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
                end += 1;
            }
            out.push((begin, end));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of `text`, and whether it must be refused: a number made non-finite must
/// be (every number of a table is a size, a place, a speed or a count, all finite).
fn mutate(text: &str, spots: &[(usize, usize)], rng: &mut StdRng) -> (String, bool) {
    let (begin, end) = spots[rng.random_range(0..spots.len())];
    let float = text[begin..end].contains('.');
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..begin]);
    let must_fail = match rng.random_range(0..8) {
        0 if float => {
            out.push_str(["NaN", "inf", "-inf"][rng.random_range(0..3)]);
            true
        }
        1 => {
            out.push_str(&format!("{}", -rng.random_range(0.0..1000.0_f32)));
            false
        }
        2 => {
            out.push('0');
            false
        }
        3 if float => {
            out.push_str("1e30");
            false
        }
        4 => {
            // Cut the file short here.
            return (out, true);
        }
        5 => {
            // An unknown field before this number's field.
            out.push_str(&text[begin..end]);
            out.push_str(", zzz_unknown: 1.0");
            false
        }
        _ => {
            out.push_str(&format!("{:.3}", rng.random_range(-2000.0..2000.0_f32)));
            false
        }
    };
    out.push_str(&text[end..]);
    (out, must_fail)
}

/// Every number a loaded table keeps for the physics, finite.
fn all_finite(def: &TableDef) -> bool {
    let t = &def.tuning;
    def.outline_points().iter().all(|p| p.is_finite())
        && def.walls.iter().flat_map(|w| w.points()).all(|p| p.is_finite())
        && [def.size.0, def.size.1, def.slope_degrees, def.ball_radius]
            .iter()
            .all(|x| x.is_finite())
        && def
            .flippers
            .iter()
            .all(|f| f.length.is_finite() && f.thickness.is_finite())
        && def.bumpers.iter().all(|b| b.radius.is_finite())
        && def.playfield.posts.iter().all(|p| p.radius.is_finite())
        && [
            t.ball_restitution,
            t.wall_restitution,
            t.bumper_kick,
            t.sling_kick,
        ]
        .iter()
        .all(|x| x.is_finite())
}

#[test]
fn generated_tables_are_refused_by_name_and_never_load_a_nan() {
    let mut rng = StdRng::seed_from_u64(28);
    let (mut inputs, mut refused) = (0, 0);
    for text in [CLASSIC, STARFALL] {
        let spots = numbers(text);
        assert!(spots.len() > 100, "{} numbers", spots.len());
        for _ in 0..MUTATIONS_PER_TABLE {
            let (mutated, must_fail) = mutate(text, &spots, &mut rng);
            inputs += 1;
            match parse(&mutated) {
                Ok(def) => {
                    assert!(!must_fail, "loaded a table that must be refused:\n{mutated}");
                    assert!(all_finite(&def), "a non-finite number got through:\n{mutated}");
                }
                Err(TableError::Invalid { field, problem }) => {
                    refused += 1;
                    assert!(!field.is_empty() && !problem.is_empty());
                }
                Err(TableError::Parse(e)) => {
                    refused += 1;
                    // ron names the place (line and column) and what it expected or found.
                    assert!(e.contains(':'), "{e}");
                }
                Err(e @ TableError::Read(..)) => panic!("no file was read: {e}"),
            }
        }
    }
    assert_eq!(inputs, 2 * MUTATIONS_PER_TABLE);
    println!("{inputs} generated tables, {refused} refused with a named error");
}
