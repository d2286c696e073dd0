//! Prints the figures of issue 29 ("contacts that compose, part two"), as Markdown tables:
//! the exit speeds of balls shot into the apex of corners, the energy of two-surface
//! contacts, a ball at rest in a V, squeezes, and the README's lane gate (how soon it comes
//! to rest, the largest energy ratio of a pass, the wrong-way throws that got through).
//!
//! The scenes are the tests' own: this example includes `crates/ccd_core/tests/compose.rs`
//! and `crates/bevy_circle_ccd/tests/gate.rs`, so it prints the figures those tests assert
//! on.
//!
//! ```sh
//! cargo run -p bevy_circle_ccd --example compose_figures
//! ```

#[allow(
    dead_code,
    unused_imports,
    reason = "the test file's scenes; its #[test] functions are not built here"
)]
#[path = "../../ccd_core/tests/compose.rs"]
mod compose;

#[allow(
    dead_code,
    unused_imports,
    reason = "the test file's scenes; its #[test] functions are not built here"
)]
#[path = "../tests/gate.rs"]
mod gate;

use compose::{PATHS, RIGHT_ANGLE, SHOT_RESTITUTIONS, SHOT_SPEED, Shape};

/// The corners of the apex table: the right angle both ways, then the V's.
const SHAPES: [Shape; 5] = [
    Shape::FloorAndWall,
    Shape::V(RIGHT_ANGLE),
    Shape::V(10.0),
    Shape::V(5.0),
    Shape::V(1.0),
];

fn main() {
    core_figures();
    gate_figures();
}

/// The `ccd_core` scenes (`compose.rs`).
fn core_figures() {
    println!(
        "## Shots into an apex (ccd_core, {} Hz, r = {}, {SHOT_SPEED} units/s along the axis)\n",
        compose::HZ,
        compose::RADIUS
    );
    println!(
        "| corner | e | path | exit speed | expected (e·v) | distance from −e·v, of the speed | capped |"
    );
    println!("|---|---|---|---|---|---|---|");
    for shape in SHAPES {
        for e in SHOT_RESTITUTIONS {
            for path in PATHS {
                let shot = compose::apex_shot(path, shape, e);
                println!(
                    "| {} | {e} | {path:?} | {:.3} | {:.3} | {:.2e} | {} |",
                    shape_name(shape),
                    shot.v_out.length(),
                    e * SHOT_SPEED,
                    shot.error(e),
                    shot.capped
                );
            }
        }
    }

    println!(
        "\n## Two-surface contacts at e = 1 ({} random V's per path)\n",
        compose::ENERGY_CASES
    );
    println!("| path | worst abs(E/E₀ − 1) | deepest in a wall (of r) | capped |");
    println!("|---|---|---|---|");
    for path in PATHS {
        let f = compose::two_surface_energy(path);
        println!(
            "| {path:?} | {:.2e} | {:.2e} | {} |",
            f.worst, f.deepest, f.capped
        );
    }

    println!(
        "\n## At rest in a V (g = {} units/s², {} steps)\n",
        compose::GRAVITY,
        compose::REST_STEPS
    );
    println!("| V | path | drift (of r) | most contacts in a step | contacts in all | capped |");
    println!("|---|---|---|---|---|---|");
    for (opening, tilt) in compose::REST_VS {
        for path in PATHS {
            let f = compose::rest_in_v(path, opening, tilt);
            println!(
                "| {opening}°, tilted {tilt}° | {path:?} | {:.2e} | {} | {} | {} |",
                f.drift, f.most_contacts, f.contacts, f.capped
            );
        }
    }

    let (worst, runs, missed) = compose::squeezes();
    println!(
        "\n## Squeezes\n\n{runs} squeezes: fastest speed over one bounce's off the plate at worst {worst:.6} \
         (the plate missed the ball in {missed})"
    );
}

/// The lane gate's scenes (`gate.rs`).
fn gate_figures() {
    println!(
        "\n## The README's lane gate (plugin, {} Hz, lane {} wide, r = {})\n",
        gate::HZ,
        gate::LANE_WIDTH,
        gate::BALL_RADIUS
    );
    let secs = |t: Option<f32>| t.map_or("not within 3 s".to_string(), |t| format!("{t:.3} s"));
    println!("| settles (abs(ω) < {} rad/s for good) | time |", gate::REST_SPIN);
    println!("|---|---|");
    println!(
        "| released from fully open | {} |",
        secs(gate::settle_from_open())
    );
    println!(
        "| after a pass at {} units/s | {} |",
        gate::PASS_SPEED,
        secs(gate::settle_after_pass())
    );
    println!("| left on its stop | {} |", secs(gate::settle_untouched()));

    let p = gate::passes();
    println!(
        "\nPasses at {} units/s: {} of {} through; largest energy ratio (ball + gate at a step's end over \
         the ball at its start plus the gate after its spring's push) {:.9}; largest speed ratio of the \
         ball at a gate contact {:.6}",
        gate::PASS_SPEED,
        p.passed,
        p.runs,
        p.energy_ratio,
        p.speed_ratio
    );

    println!(
        "\n| wrong-way speed | crossed | throws | left the lane | missed the gate | audit faults | gate open at most |"
    );
    println!("|---|---|---|---|---|---|---|");
    for speed in gate::THROW_SPEEDS {
        let f = gate::throw_figures(speed);
        println!(
            "| {speed} | {} | {} | {} | {} | {} | {:.4} rad |",
            f.crossed, f.throws, f.left_lane, f.missed, f.faults, f.widest
        );
    }
}

/// A corner's name in the tables.
fn shape_name(shape: Shape) -> String {
    match shape {
        Shape::FloorAndWall => "90°, floor and wall".to_string(),
        Shape::V(opening) => format!("{opening}° V"),
    }
}
