//! `screenshot_check`: does a smoke-run screenshot show the scene?
//!
//! A blank or half-drawn frame compresses to a small file, but so can a sparse scene, and
//! a frame of noise compresses badly: file size says little. This tool decodes the PNG
//! and measures what a person would look at, in the scene's region of the window:
//!
//! - the image has the window's size;
//! - the fraction of *lit* pixels (brightest channel at least [`LIT_LEVEL`]) lies between
//!   the scene's floor and [`MAX_LIT`]: a blank frame has none, a frame washed over by one
//!   bright colour has nearly all;
//! - each of [`BANDS`] horizontal bands has lit pixels, so a frame drawn in part fails;
//! - the scene's own colours (walls, bumpers, the playfield) cover enough of it.
//!
//! The rules of each scene, with the measurements they come from, are in [`Scene::rules`].
//!
//! ```text
//! screenshot_check check target/smoke/pinball.png --scene pinball
//! screenshot_check blank target/smoke/blank.png --fill 080910   # check must fail on it
//! ```
//!
//! Exit code 0 when every rule holds, 1 when one fails (each failure is printed), 2 when
//! the file cannot be read or written.

use clap::{Parser, Subcommand};
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(about = "Checks that a screenshot shows the scene, not a blank frame")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure a PNG against a scene's rules; exit 1 if one fails.
    Check {
        /// The PNG.
        png: PathBuf,
        /// Which scene it must show.
        #[arg(long, value_enum)]
        scene: Scene,
        /// The window's size, `WxH`.
        #[arg(long, value_parser = parse_size, default_value = "1280x720")]
        size: (u32, u32),
    },
    /// Write a PNG of one colour (to show that `check` fails on it).
    Blank {
        /// Where to write it.
        png: PathBuf,
        /// Its size, `WxH`.
        #[arg(long, value_parser = parse_size, default_value = "1280x720")]
        size: (u32, u32),
        /// Its colour, `RRGGBB`.
        #[arg(long, value_parser = parse_rgb, default_value = "000000")]
        fill: [u8; 3],
    },
}

/// The scenes this repository's CI photographs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Scene {
    /// `examples/bounce_lab.rs`: the whole window.
    BounceLab,
    /// `examples/pinball`: the table, left of the panel.
    Pinball,
    /// `examples/block_it`: the turning room, left of the panel.
    BlockIt,
}

/// Brightest channel (0–255) from which a pixel is lit: strokes, balls, bumpers and text
/// are; the examples' clear colours and the pinball playfield fill (brightest channel 41
/// at most) are not.
const LIT_LEVEL: u8 = 96;

/// Horizontal bands of the region that must each show lit pixels.
const BANDS: u32 = 6;

/// Largest fraction of lit pixels: a frame washed over by one bright colour (a clear
/// colour gone wrong, an error screen) is not the scene. Both scenes light about 5 %.
const MAX_LIT: f64 = 0.5;

impl Scene {
    /// The rules for this scene in a window of `size` pixels.
    ///
    /// The floors are a quarter or less of what the committed screenshots in `docs/` show
    /// (measured with this tool), so frames that differ from run to run (autoplay, gizmo
    /// paths) pass, while a blank frame (nothing lit), a frame drawn in part (a band with
    /// nothing lit) or one without the scene's own colours fails.
    fn rules(self, size: (u32, u32)) -> Rules {
        match self {
            // docs/bounce_lab.png: lit 5.6 %, at least 2.4 % in every band; its wall blue
            // (0.45, 0.65, 0.95) covers 1.2 % and its post pink (0.95, 0.45, 0.55) 0.8 %.
            Self::BounceLab => Rules {
                size,
                region: [0.0, 0.0, 1.0, 1.0],
                min_lit: 0.014,
                min_band_lit: 0.005,
                colours: vec![
                    ColourRule::new([0x73, 0xa6, 0xf2], 24, 0.003),
                    ColourRule::new([0xf2, 0x73, 0x8c], 24, 0.003),
                ],
            },
            // docs/pinball.png, the left 74 % of the window (the panel takes the rest): lit
            // 4.1 %, at least 2.2 % in every band; the playfield fill (0.07, 0.09, 0.16)
            // covers 27 % (the playfield is drawn) and the wall core (0.55, 0.8, 1.0) 0.65 %
            // (the walls are drawn).
            Self::Pinball => Rules {
                size,
                region: [0.0, 0.0, 0.74, 1.0],
                min_lit: 0.01,
                min_band_lit: 0.005,
                colours: vec![
                    ColourRule::new([0x12, 0x17, 0x29], 6, 0.1),
                    ColourRule::new([0x8c, 0xcd, 0xff], 24, 0.002),
                ],
            },
            // docs/block_it.png, left of the panel (78 % of the width) and the middle 60 %
            // of the height, which the turning room's walls cross at any angle: lit 5.4 %
            // (5.4–7.7 % in other frames), at least 3.1 % in every band; the room's floor
            // (0.07, 0.09, 0.16) covers 31–34 % and its solid walls (0.55, 0.6, 0.75)
            // 1.7–2.0 %.
            Self::BlockIt => Rules {
                size,
                region: [0.05, 0.2, 0.78, 0.8],
                min_lit: 0.01,
                min_band_lit: 0.005,
                colours: vec![
                    ColourRule::new([0x12, 0x17, 0x29], 6, 0.075),
                    ColourRule::new([0x8c, 0x99, 0xbf], 24, 0.004),
                ],
            },
        }
    }
}

/// What a screenshot must show.
#[derive(Debug, Clone)]
struct Rules {
    /// The expected size (the window's).
    size: (u32, u32),
    /// The scene's region, `x0, y0, x1, y1` as fractions of the width and height (y down).
    region: [f32; 4],
    /// Smallest fraction of lit pixels in the region.
    min_lit: f64,
    /// Smallest fraction of lit pixels in each of the [`BANDS`].
    min_band_lit: f64,
    /// Colours the scene must show.
    colours: Vec<ColourRule>,
}

/// A colour the scene must show: within `tolerance` per channel, on at least
/// `min_fraction` of the region's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ColourRule {
    rgb: [u8; 3],
    tolerance: u8,
    min_fraction: f64,
}

impl ColourRule {
    const fn new(rgb: [u8; 3], tolerance: u8, min_fraction: f64) -> Self {
        Self {
            rgb,
            tolerance,
            min_fraction,
        }
    }
}

/// An RGB image, row-major, top row first.
struct Image {
    width: u32,
    height: u32,
    pixels: Vec<[u8; 3]>,
}

impl Image {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        self.pixels[(y * self.width + x) as usize]
    }
}

/// What was measured, for the log.
#[derive(Debug, Default)]
struct Measured {
    lit: f64,
    band_lit: Vec<f64>,
    colours: Vec<f64>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Blank { png, size, fill } => match write_png(&png, size, fill) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("screenshot_check: cannot write {}: {e}", png.display());
                ExitCode::from(2)
            }
        },
        Command::Check { png, scene, size } => {
            let rules = scene.rules(size);
            let image = match read_png(&png) {
                Ok(image) => image,
                Err(e) => {
                    eprintln!("screenshot_check: cannot read {}: {e}", png.display());
                    return ExitCode::from(2);
                }
            };
            let (measured, failures) = check(&image, &rules);
            println!(
                "{}: {}x{}, lit {:.4} of the region, bands {:?}, colours {:?}",
                png.display(),
                image.width,
                image.height,
                measured.lit,
                rounded(&measured.band_lit),
                rounded(&measured.colours)
            );
            if failures.is_empty() {
                println!("{}: shows the scene", png.display());
                ExitCode::SUCCESS
            } else {
                for f in &failures {
                    eprintln!("{}: FAIL: {f}", png.display());
                }
                ExitCode::from(1)
            }
        }
    }
}

fn rounded(values: &[f64]) -> Vec<f64> {
    values.iter().map(|v| (v * 1e4).round() / 1e4).collect()
}

/// Measure `image` and list every rule it breaks.
fn check(image: &Image, rules: &Rules) -> (Measured, Vec<String>) {
    let mut failures = Vec::new();
    let mut measured = Measured::default();
    if (image.width, image.height) != rules.size {
        failures.push(format!(
            "size {}x{}, expected {}x{}",
            image.width, image.height, rules.size.0, rules.size.1
        ));
        return (measured, failures);
    }
    let [fx0, fy0, fx1, fy1] = rules.region;
    let px = |f: f32, n: u32| ((f * n as f32).round() as u32).min(n);
    let (x0, x1) = (px(fx0, image.width), px(fx1, image.width));
    let (y0, y1) = (px(fy0, image.height), px(fy1, image.height));
    if x1 <= x0 || y1 <= y0 {
        failures.push(format!("empty region {:?}", rules.region));
        return (measured, failures);
    }
    let bands = BANDS;
    let mut band_lit = vec![0_u64; bands as usize];
    let mut band_total = vec![0_u64; bands as usize];
    let mut colour_hits = vec![0_u64; rules.colours.len()];
    let mut lit = 0_u64;
    for y in y0..y1 {
        let band = (((y - y0) as u64 * bands as u64) / (y1 - y0) as u64) as usize;
        for x in x0..x1 {
            let p = image.pixel(x, y);
            let is_lit = p.into_iter().max().unwrap_or(0) >= LIT_LEVEL;
            lit += u64::from(is_lit);
            band_lit[band] += u64::from(is_lit);
            band_total[band] += 1;
            for (hits, rule) in colour_hits.iter_mut().zip(&rules.colours) {
                let near = p
                    .iter()
                    .zip(rule.rgb)
                    .all(|(&c, r)| c.abs_diff(r) <= rule.tolerance);
                *hits += u64::from(near);
            }
        }
    }
    let total = u64::from(x1 - x0) * u64::from(y1 - y0);
    measured.lit = lit as f64 / total as f64;
    if measured.lit < rules.min_lit {
        failures.push(format!(
            "lit fraction {:.5} below {} (blank or nearly blank)",
            measured.lit, rules.min_lit
        ));
    }
    if measured.lit > MAX_LIT {
        failures.push(format!(
            "lit fraction {:.5} above {MAX_LIT} (washed over)",
            measured.lit
        ));
    }
    for (k, (&l, &t)) in band_lit.iter().zip(&band_total).enumerate() {
        let f = l as f64 / t.max(1) as f64;
        measured.band_lit.push(f);
        if f < rules.min_band_lit {
            failures.push(format!(
                "band {} of {bands} (top first) has lit fraction {f:.5}, below {} (drawn in part)",
                k + 1,
                rules.min_band_lit
            ));
        }
    }
    for (hits, rule) in colour_hits.iter().zip(&rules.colours) {
        let f = *hits as f64 / total as f64;
        measured.colours.push(f);
        if f < rule.min_fraction {
            let [r, g, b] = rule.rgb;
            failures.push(format!(
                "colour {r:02x}{g:02x}{b:02x} (±{}) covers {f:.5}, below {}",
                rule.tolerance, rule.min_fraction
            ));
        }
    }
    (measured, failures)
}

fn read_png(path: &Path) -> Result<Image, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let mut decoder = png::Decoder::new(BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "image too large".to_owned())?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("indexed colour left unexpanded".to_owned()),
    };
    let mut pixels = Vec::with_capacity((info.width * info.height) as usize);
    for row in buf.chunks(info.line_size).take(info.height as usize) {
        for px in row.chunks(channels).take(info.width as usize) {
            pixels.push(if channels < 3 {
                [px[0]; 3]
            } else {
                [px[0], px[1], px[2]]
            });
        }
    }
    Ok(Image {
        width: info.width,
        height: info.height,
        pixels,
    })
}

fn write_png(path: &Path, (width, height): (u32, u32), fill: [u8; 3]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    let data: Vec<u8> = (0..width as usize * height as usize).flat_map(|_| fill).collect();
    writer.write_image_data(&data).map_err(|e| e.to_string())
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once('x').ok_or("expected WxH")?;
    let w = w.parse::<u32>().map_err(|e| e.to_string())?;
    let h = h.parse::<u32>().map_err(|e| e.to_string())?;
    if w == 0 || h == 0 {
        return Err("width and height must be positive".to_owned());
    }
    Ok((w, h))
}

fn parse_rgb(s: &str) -> Result<[u8; 3], String> {
    let s = s.trim_start_matches('#');
    if s.len() != 6 {
        return Err("expected RRGGBB".to_owned());
    }
    let byte = |i: usize| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| e.to_string());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKGROUND: [u8; 3] = [5, 7, 13];
    const STROKE: [u8; 3] = [74, 140, 255];

    /// A 100 × 60 scene: lit above 2 % overall and 0.1 % per band, with the stroke colour
    /// on at least 1 %.
    fn rules() -> Rules {
        Rules {
            size: (100, 60),
            region: [0.0, 0.0, 1.0, 1.0],
            min_lit: 0.02,
            min_band_lit: 0.001,
            colours: vec![ColourRule::new(STROKE, 16, 0.01)],
        }
    }

    fn blank(fill: [u8; 3]) -> Image {
        Image {
            width: 100,
            height: 60,
            pixels: vec![fill; 100 * 60],
        }
    }

    /// Vertical strokes two pixels wide every 20 columns over `rows`: 10 of 100 columns,
    /// so 10 % of the pixels of those rows.
    fn strokes(rows: std::ops::Range<u32>) -> Image {
        let mut image = blank(BACKGROUND);
        for y in rows {
            for x in (0..100).filter(|x| x % 20 < 2) {
                image.pixels[(y * 100 + x) as usize] = STROKE;
            }
        }
        image
    }

    #[test]
    fn a_drawn_scene_passes() {
        let (m, failures) = check(&strokes(0..60), &rules());
        assert!(failures.is_empty(), "{failures:?}");
        assert!((m.lit - 0.1).abs() < 1e-9);
        assert!((m.colours[0] - 0.1).abs() < 1e-9);
    }

    #[test]
    fn blank_frames_fail() {
        // The clear colour alone: nothing lit in total or in any band, no stroke colour.
        let (_, failures) = check(&blank(BACKGROUND), &rules());
        assert_eq!(failures.len(), 1 + BANDS as usize + 1, "{failures:?}");
        // One bright colour over everything: washed over, and not the stroke colour.
        let (m, failures) = check(&blank([255, 255, 255]), &rules());
        assert_eq!(m.lit, 1.0);
        assert!(failures.iter().any(|f| f.contains("washed over")), "{failures:?}");
        assert!(failures.iter().any(|f| f.contains("colour")), "{failures:?}");
    }

    #[test]
    fn a_frame_drawn_in_part_fails() {
        // Only the top half drawn: 5 % lit overall passes the total, but the lower three
        // of the six bands are empty.
        let (m, failures) = check(&strokes(0..30), &rules());
        assert!((m.lit - 0.05).abs() < 1e-9);
        assert_eq!(failures.len(), 3, "{failures:?}");
        assert!(failures.iter().all(|f| f.contains("drawn in part")));
    }

    #[test]
    fn wrong_size_fails() {
        let mut r = rules();
        r.size = (1280, 720);
        let (_, failures) = check(&strokes(0..60), &r);
        assert_eq!(failures.len(), 1);
        assert!(failures[0].contains("size"));
    }

    #[test]
    fn round_trip_through_a_file() {
        let path = std::env::temp_dir().join(format!("screenshot_check_{}.png", std::process::id()));
        write_png(&path, (100, 60), BACKGROUND).unwrap();
        let image = read_png(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!((image.width, image.height), (100, 60));
        assert!(image.pixels.iter().all(|&p| p == BACKGROUND));
    }

    /// The committed screenshots, which the scene rules were measured on, pass them; a
    /// blank frame in either example's clear colour fails both.
    #[test]
    fn committed_screenshots_pass_and_blank_frames_fail() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
        for (scene, file) in [
            (Scene::BounceLab, "bounce_lab.png"),
            (Scene::Pinball, "pinball.png"),
        ] {
            let image = read_png(&docs.join(file)).unwrap();
            let rules = scene.rules((image.width, image.height));
            let (_, failures) = check(&image, &rules);
            assert!(failures.is_empty(), "{file}: {failures:?}");
            // The pinball and bounce_lab clear colours, (0.03, 0.035, 0.06) and
            // (0.05, 0.06, 0.09).
            for fill in [[8, 9, 15], [13, 15, 23]] {
                let empty = Image {
                    width: image.width,
                    height: image.height,
                    pixels: vec![fill; image.pixels.len()],
                };
                assert!(
                    !check(&empty, &rules).1.is_empty(),
                    "{file}: a blank frame passed"
                );
            }
        }
    }

    #[test]
    fn arguments_are_parsed() {
        assert_eq!(parse_size("1280x720"), Ok((1280, 720)));
        assert!(parse_size("0x720").is_err());
        assert!(parse_size("1280").is_err());
        assert_eq!(parse_rgb("#4a8cff"), Ok([0x4a, 0x8c, 0xff]));
        assert!(parse_rgb("4a8cf").is_err());
    }
}
