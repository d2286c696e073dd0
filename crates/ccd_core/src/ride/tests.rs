use super::*;
use crate::shape::{Capsule, Circle, CircleArc};

#[test]
fn the_circle_ridden_on_each_round_part() {
    // A pillar of 9.5 and a ball of 0.5: the centre rides a circle of 10, whole.
    let pillar = ObstacleShape::Circle(Circle::new(Vec2::new(1.0, 2.0), 9.5));
    let got = ridden(&pillar, Vec2::new(1.0, 12.0), 0.5).unwrap();
    assert_eq!(
        (got.center, got.radius, got.inside, got.span),
        (DVec2::new(1.0, 2.0), 10.0, false, None)
    );
    // A segment from (0, 0) to (4, 0): beyond (4, 0) its end, the half turn facing +x;
    // on its face, nothing (the ball slides there).
    let wall = ObstacleShape::Segment(Segment::new(Vec2::ZERO, Vec2::new(4.0, 0.0)));
    assert!(ridden(&wall, Vec2::new(2.0, 1.0), 1.0).is_none());
    let end = ridden(&wall, Vec2::new(4.5, 0.5), 1.0).unwrap();
    assert_eq!((end.center, end.radius), (DVec2::new(4.0, 0.0), 1.0));
    assert_eq!(end.span, Some([DVec2::new(0.0, -1.0), DVec2::new(0.0, 1.0)]));
    // Seen from straight up, that half turn runs from −π/2 to +π/2.
    let (low, high) = end.angles_from(DVec2::X);
    assert!(
        (low + FRAC).abs() < 1e-12 && (high - FRAC).abs() < 1e-12,
        "{low} {high}"
    );
    // A capsule of radius 2: its end's circle is 2 + r.
    let capsule = ObstacleShape::Capsule(Capsule::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 2.0));
    assert_eq!(ridden(&capsule, Vec2::new(-3.0, 0.0), 1.0).unwrap().radius, 3.0);
    // A bowl: the lower half of an arc of 10 (from π to 2π); from inside, L = 10 − 0.5.
    let bowl = ObstacleShape::Arc(CircleArc::new(Vec2::ZERO, 10.0, PI, 2.0 * PI));
    let inside = ridden(&bowl, Vec2::new(0.0, -9.5), 0.5).unwrap();
    assert!(inside.inside && inside.radius == 9.5);
    let (low, high) = inside.angles_from(-DVec2::Y);
    assert!(
        (low + FRAC).abs() < 1e-6 && (high - FRAC).abs() < 1e-6,
        "{low} {high}"
    );
    // From outside, 10.5; beyond its end at (10, 0), the cap (a rail: L = r).
    assert_eq!(ridden(&bowl, Vec2::new(0.0, -10.5), 0.5).unwrap().radius, 10.5);
    let cap = ridden(&bowl, Vec2::new(10.0, 0.5), 0.5).unwrap();
    // (The end at 2π in f32 lies 1.7e-6 below the axis.)
    assert!((cap.center - DVec2::new(10.0, 0.0)).length() < 1e-5 && cap.radius == 0.5);
    // A full ring rides whole.
    let ring = ObstacleShape::Arc(CircleArc::new(Vec2::ZERO, 10.0, 0.3, 0.3 + std::f32::consts::TAU));
    assert_eq!(ridden(&ring, Vec2::new(0.0, -9.5), 0.5).unwrap().span, None);
}

const FRAC: f64 = std::f64::consts::FRAC_PI_2;
const PI: f32 = std::f32::consts::PI;

#[test]
fn a_point_at_a_bare_end_rides_nothing() {
    // A ball of no radius at a segment's end: the circle it would ride has no radius.
    let wall = ObstacleShape::Segment(Segment::new(Vec2::ZERO, Vec2::new(4.0, 0.0)));
    assert!(ridden(&wall, Vec2::new(4.0, 0.0), 0.0).is_none());
    assert!(ridden(&wall, Vec2::new(4.5, 0.0), 0.0).is_none());
}

#[test]
fn a_velocity_a_hair_against_the_part_is_rounded_along_it() {
    // Exactly (1, −3e-8), toward the part (0, 1): every f32 vector next to it
    // points down (the ulp of 3e-8 is 3.6e-15), so none of them will do. Its part against
    // the part taken out, it is (1, 0), an f32 vector itself.
    let toward = glam::DVec2::new(0.0, 1.0);
    let rounded = place::nearest_not_against(glam::DVec2::new(1.0, -3e-8), toward);
    assert_eq!(rounded, Vec2::new(1.0, 0.0));
    // Along or off the part, a velocity is only rounded: (0.5, 0.25) is an f32 vector.
    let off = place::nearest_not_against(glam::DVec2::new(0.5, 0.25), toward);
    assert_eq!(off, Vec2::new(0.5, 0.25));
}

#[test]
fn a_face_ending_on_a_post_holds_no_ball_heading_off_its_end() {
    // A pillar of 5 at (0, −5), a floor from (−10, 0) to its top, (0, 0), a ball of 0.5
    // riding the pillar: L = 5.5. The touch slop is 5e-5, so the ball is at the floor's
    // end while its foot is within √(2·5.5·5e-5) = 0.0235 of it.
    let pillar = ObstacleShape::Circle(Circle::new(Vec2::new(0.0, -5.0), 5.0));
    let on_top = ridden(&pillar, Vec2::new(0.0, 0.5), 0.5).unwrap();
    let floor = ObstacleShape::Segment(Segment::new(Vec2::new(-10.0, 0.0), Vec2::ZERO));
    let ends = |center: Vec2, velocity: Vec2| ends_on(&on_top, 0.5, &floor, center, velocity);
    let (off, back) = (Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0));
    // At the end, heading off it (or at rest): the floor does not hold it.
    assert!(ends(Vec2::new(0.0, 0.5), off));
    assert!(ends(Vec2::new(0.0, 0.5), Vec2::ZERO));
    assert!(ends(Vec2::new(-0.02, 0.5), off));
    assert!(ends(Vec2::new(0.3, 0.49), off));
    // Heading back onto the floor, or further back on it than 0.0235: it does.
    assert!(!ends(Vec2::new(0.0, 0.5), back));
    assert!(!ends(Vec2::new(-0.03, 0.5), off));
    // A floor that ends 1e-2 above the pillar's top, beyond the slop, is a step of its
    // own; a pillar's face is no face.
    let above = ObstacleShape::Segment(Segment::new(Vec2::new(-10.0, 0.01), Vec2::new(0.0, 0.01)));
    assert!(!ends_on(&on_top, 0.5, &above, Vec2::new(0.0, 0.51), off));
    assert!(!ends_on(&on_top, 0.5, &pillar, Vec2::new(0.0, 0.5), off));
}
