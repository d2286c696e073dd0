//! Hand-computed cases for every region of the capsule.

use super::*;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The floor from (-10, 0) to (10, 0); its front normal is +y.
fn floor() -> Segment {
    Segment::new(v(-10.0, 0.0), v(10.0, 0.0))
}

fn ball(x: f32, y: f32) -> Circle {
    Circle::new(v(x, y), 1.0)
}

#[test]
fn front_face() {
    // Centre from y = 5 down by 8; contact at y = 1: toi = 4 / 8.
    let hit = sweep_circle_segment(ball(3.0, 5.0), v(0.0, -8.0), floor()).unwrap();
    assert_eq!(
        hit,
        Hit {
            toi: 0.5,
            center: v(3.0, 1.0),
            point: v(3.0, 0.0),
            normal: v(0.0, 1.0)
        }
    );
}

#[test]
fn back_face() {
    // From below, up by 10; contact at y = -1 after 2 units: toi = 0.2.
    let hit = sweep_circle_segment(ball(-4.0, -3.0), v(0.0, 10.0), floor()).unwrap();
    assert!((hit.toi - 0.2).abs() < 1e-7);
    assert!((hit.center - v(-4.0, -1.0)).length() < 1e-6);
    assert_eq!(hit.point.y, 0.0);
    assert_eq!(hit.normal, v(0.0, -1.0));
}

#[test]
fn oblique_face() {
    // Moving (6, -8) from (0, 9): the centre reaches y = 1 after 8 / 8 = 1 of the y-travel,
    // i.e. toi = 1.0 at x = 6.
    let hit = sweep_circle_segment(ball(0.0, 9.0), v(6.0, -8.0), floor()).unwrap();
    assert_eq!(hit.toi, 1.0);
    assert_eq!(hit.center, v(6.0, 1.0));
}

#[test]
fn end_point_a_head_on() {
    // Moving right along the segment's line into end A at (-10, 0): contact at x = -11.
    let hit = sweep_circle_segment(ball(-20.0, 0.0), v(18.0, 0.0), floor()).unwrap();
    assert!((hit.toi - 0.5).abs() < 1e-7);
    assert_eq!(hit.point, v(-10.0, 0.0));
    assert_eq!(hit.normal, v(-1.0, 0.0));
}

#[test]
fn end_point_b_off_centre() {
    // Moving left along y = 0.6 into end B at (10, 0): contact where the centre is at
    // distance 1 from B, i.e. x = 10 + 0.8 (a 0.6-0.8-1 triangle). From x = 20: 9.2 units.
    let hit = sweep_circle_segment(ball(20.0, 0.6), v(-18.4, 0.0), floor()).unwrap();
    assert!((hit.toi - 0.5).abs() < 1e-6);
    assert!((hit.center - v(10.8, 0.6)).length() < 1e-5);
    assert_eq!(hit.point, v(10.0, 0.0));
    assert!((hit.normal - v(0.8, 0.6)).length() < 1e-5);
}

#[test]
fn end_point_from_below_the_line() {
    // Moving up along x = 10.6 past end B: contact with the cap at y = -0.8.
    let hit = sweep_circle_segment(ball(10.6, -5.0), v(0.0, 10.0), floor()).unwrap();
    assert!((hit.center - v(10.6, -0.8)).length() < 1e-5);
    assert!((hit.normal - v(0.6, -0.8)).length() < 1e-5);
}

#[test]
fn parallel_motion_along_face() {
    // Sliding along the face at exactly the contact distance: grazing, never a hit.
    assert_eq!(sweep_circle_segment(ball(-5.0, 1.0), v(10.0, 0.0), floor()), None);
    // Parallel but clear of it.
    assert_eq!(sweep_circle_segment(ball(-5.0, 2.0), v(10.0, 0.0), floor()), None);
    // Parallel inside the slab beyond an end: it meets the end cap.
    let hit = sweep_circle_segment(ball(15.0, 0.0), v(-10.0, 0.0), floor()).unwrap();
    assert!((hit.toi - 0.4).abs() < 1e-7);
}

#[test]
fn grazing_an_end_point() {
    // Passing end B at exactly distance 1: tangent, no hit.
    assert_eq!(
        sweep_circle_segment(ball(11.0, 5.0), v(0.0, -10.0), floor()),
        None
    );
}

#[test]
fn starting_in_touch() {
    let touching = ball(0.0, 1.0);
    // Moving in: hit at once.
    let hit = sweep_circle_segment(touching, v(1.0, -1.0), floor()).unwrap();
    assert_eq!(
        hit,
        Hit {
            toi: 0.0,
            center: v(0.0, 1.0),
            point: v(0.0, 0.0),
            normal: v(0.0, 1.0)
        }
    );
    // Moving away, or along: free.
    assert_eq!(sweep_circle_segment(touching, v(1.0, 1.0), floor()), None);
    assert_eq!(sweep_circle_segment(touching, v(1.0, 0.0), floor()), None);
}

#[test]
fn starting_overlapped() {
    // Half sunk into the floor from above; moving further in is stopped at toi 0.
    let sunk = ball(2.0, 0.5);
    let hit = sweep_circle_segment(sunk, v(0.0, -3.0), floor()).unwrap();
    assert_eq!((hit.toi, hit.normal, hit.point), (0.0, v(0.0, 1.0), v(2.0, 0.0)));
    assert_eq!(sweep_circle_segment(sunk, v(0.0, 3.0), floor()), None);
    // Overlapping end A from the side.
    let hit = sweep_circle_segment(ball(-10.5, 0.0), v(1.0, 0.0), floor()).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.0, v(-1.0, 0.0)));
}

#[test]
fn centre_on_the_segment_uses_normal_against_motion() {
    let on = ball(0.0, 0.0);
    assert_eq!(
        sweep_circle_segment(on, v(0.0, 2.0), floor()).unwrap().normal,
        v(0.0, -1.0)
    );
    assert_eq!(
        sweep_circle_segment(on, v(1.0, -2.0), floor()).unwrap().normal,
        v(0.0, 1.0)
    );
    assert_eq!(sweep_circle_segment(on, v(1.0, 0.0), floor()), None);
}

#[test]
fn moving_away() {
    assert_eq!(sweep_circle_segment(ball(0.0, 5.0), v(0.0, 8.0), floor()), None);
    assert_eq!(
        sweep_circle_segment(ball(-20.0, 0.0), v(-8.0, 0.0), floor()),
        None
    );
}

#[test]
fn too_short_to_reach() {
    assert_eq!(sweep_circle_segment(ball(0.0, 5.0), v(0.0, -3.9), floor()), None);
    // Exactly reaching at toi = 1 counts.
    assert_eq!(
        sweep_circle_segment(ball(0.0, 5.0), v(0.0, -4.0), floor())
            .unwrap()
            .toi,
        1.0
    );
}

#[test]
fn zero_motion() {
    assert_eq!(sweep_circle_segment(ball(0.0, 5.0), Vec2::ZERO, floor()), None);
    assert_eq!(sweep_circle_segment(ball(0.0, 0.5), Vec2::ZERO, floor()), None);
}

#[test]
fn zero_length_segment_is_a_point() {
    let point = Segment::new(v(3.0, 4.0), v(3.0, 4.0));
    // Head on from the left: contact at x = 2.
    let hit = sweep_circle_segment(ball(-2.0, 4.0), v(8.0, 0.0), point).unwrap();
    assert_eq!(
        (hit.toi, hit.center, hit.point, hit.normal),
        (0.5, v(2.0, 4.0), v(3.0, 4.0), v(-1.0, 0.0))
    );
    assert_eq!(sweep_circle_segment(ball(-2.0, 5.5), v(8.0, 0.0), point), None);
}

#[test]
fn zero_radius_point() {
    let point = |x, y| Circle::new(v(x, y), 0.0);
    // A point falling on the face.
    let hit = sweep_circle_segment(point(1.0, 4.0), v(0.0, -8.0), floor()).unwrap();
    assert_eq!((hit.toi, hit.center, hit.normal), (0.5, v(1.0, 0.0), v(0.0, 1.0)));
    // A point moving along the line into end A, head on.
    let hit = sweep_circle_segment(point(-14.0, 0.0), v(8.0, 0.0), floor()).unwrap();
    assert_eq!(
        (hit.toi, hit.point, hit.normal),
        (0.5, v(-10.0, 0.0), v(-1.0, 0.0))
    );
    // A point passing just beyond the end: a miss.
    assert_eq!(
        sweep_circle_segment(point(10.001, 4.0), v(0.0, -8.0), floor()),
        None
    );
}

#[test]
fn huge_motion() {
    // 10⁶ units in one step still stops at the wall: toi = 4 / 1e6.
    let hit = sweep_circle_segment(ball(0.0, 5.0), v(0.0, -1e6), floor()).unwrap();
    assert!((hit.toi - 4e-6).abs() < 1e-11);
    assert!((hit.center.y - 1.0).abs() < 1e-3);
    assert_eq!(hit.normal, v(0.0, 1.0));
}

#[test]
fn large_coordinates_stay_accurate() {
    // The same fall, 10⁴ units from the origin along a tilted wall.
    let dir = v(3.0, 4.0) / 5.0;
    let base = v(9_000.0, -7_000.0);
    let wall = Segment::new(base - dir * 500.0, base + dir * 500.0);
    let n = dir.perp();
    let start = base + dir * 100.0 + n * 50.0;
    let hit = sweep_circle_segment(Circle::new(start, 2.0), -n * 96.0, wall).unwrap();
    // Gap 48 of 96: toi 0.5. The tolerance at S = 10⁴ is 1e-4 + 1e-2.
    assert!((hit.toi - 0.5).abs() < 1e-4);
    // "No digit is lost at coordinates of 10⁴": the toi is the exact one for the f32
    // inputs as given (the face's line in f64), to one f32 ulp.
    let (a, b, c, m) = (
        wall.a.as_dvec2(),
        wall.b.as_dvec2(),
        start.as_dvec2(),
        (-n * 96.0).as_dvec2(),
    );
    let d = b - a;
    let (side, closing) = (d.perp_dot(c - a) / d.length(), d.perp_dot(m) / d.length());
    let exact = (side.abs() - 2.0) / (-closing * side.signum());
    assert!(
        (f64::from(hit.toi) - exact).abs() <= exact * f64::from(f32::EPSILON),
        "toi {} against the exact {exact}",
        hit.toi
    );
    let exact = (hit.center.as_dvec2() - base.as_dvec2()).dot(n.as_dvec2());
    assert!((exact - 2.0).abs() < 1e-2, "distance {exact}");
    assert!((hit.normal - n).length() < 1e-3);
}

#[test]
fn nan_inf_and_negative_radius_give_none() {
    let go = v(0.0, -8.0);
    assert_eq!(sweep_circle_segment(ball(f32::NAN, 5.0), go, floor()), None);
    assert_eq!(sweep_circle_segment(ball(0.0, f32::INFINITY), go, floor()), None);
    assert_eq!(
        sweep_circle_segment(ball(0.0, 5.0), v(0.0, f32::NAN), floor()),
        None
    );
    assert_eq!(
        sweep_circle_segment(ball(0.0, 5.0), v(f32::NEG_INFINITY, -1.0), floor()),
        None
    );
    assert_eq!(
        sweep_circle_segment(Circle::new(v(0.0, 5.0), -1.0), go, floor()),
        None
    );
    assert_eq!(
        sweep_circle_segment(Circle::new(v(0.0, 5.0), f32::NAN), go, floor()),
        None
    );
    assert_eq!(
        sweep_circle_segment(ball(0.0, 5.0), go, Segment::new(v(f32::NAN, 0.0), v(1.0, 0.0))),
        None
    );
    assert_eq!(
        sweep_circle_segment(
            ball(0.0, 5.0),
            go,
            Segment::new(v(0.0, 0.0), v(f32::INFINITY, 0.0))
        ),
        None
    );
}

#[test]
fn extreme_but_finite_input_never_yields_non_finite() {
    let big = f32::MAX / 2.0;
    let cases = [
        (
            Circle::new(v(-big, 0.0), 1.0),
            v(big, 0.0),
            Segment::new(v(0.0, -big), v(0.0, big)),
        ),
        (Circle::new(v(0.0, 0.0), big), v(big, big), floor()),
        (
            Circle::new(v(1e-30, 1e-30), 1e-30),
            v(-1e-30, -1e-30),
            Segment::new(Vec2::ZERO, v(1e-30, 0.0)),
        ),
    ];
    for (circle, motion, segment) in cases {
        if let Some(hit) = sweep_circle_segment(circle, motion, segment) {
            assert!(hit.toi.is_finite() && (0.0..=1.0).contains(&hit.toi));
            assert!(hit.center.is_finite() && hit.point.is_finite() && hit.normal.is_finite());
        }
    }
}
