//! Heaps drawn for a page: Nim's heaps as stacks of tokens (click a token to take
//! it and those above it), the splitting games' heaps as rows of pins with the
//! gaps between them (click a pin to knock it down, a gap to split there). Very
//! large heaps are drawn as numbers, their moves made from the move list. The
//! editor adds and removes tokens and heaps.

use crate::capability::{Marks, Tool};
use crate::game::GameError;
use crate::svg::Svg;

/// Heaps drawn token by token up to this size, and this many heaps.
const MOST_TOKENS: u64 = 30;
const MOST_HEAPS: usize = 16;

const TOKEN: f64 = 26.0;
const PAD: f64 = 24.0;

/// Whether the heaps are drawn token by token (and so can be clicked).
pub fn drawn_whole(heaps: &[u64]) -> bool {
    heaps.len() <= MOST_HEAPS && heaps.iter().all(|&h| h <= MOST_TOKENS)
}

/// The class of heap `place`'s label: marked when the last move changed it.
fn label_class(marks: &Marks, place: &str) -> &'static str {
    if marks.last.iter().any(|p| p == place) {
        "label lastlabel"
    } else {
        "label"
    }
}

/// The heap numbers as boxes, for heaps too large to draw token by token.
fn svg_numbers(heaps: &[u64], marks: &Marks, title: &str) -> String {
    let shown = heaps.len().min(40);
    let mut svg = Svg::new(
        2.0 * PAD + 8.0 * 90.0,
        2.0 * PAD + (shown.div_ceil(8) as f64) * 60.0,
    );
    for (i, h) in heaps.iter().take(shown).enumerate() {
        let (x, y) = (PAD + (i % 8) as f64 * 90.0, PAD + (i / 8) as f64 * 60.0);
        let place = format!("h{}", i + 1);
        let class = if marks.last.contains(&place) {
            "pit last"
        } else {
            "pit"
        };
        svg.rounded((x, y, 84.0, 50.0), 8.0, class, Some(&place));
        svg.text(x + 42.0, y + 18.0, &place, "label");
        svg.text(x + 42.0, y + 36.0, &h.to_string(), "count");
    }
    if heaps.len() > shown {
        let y = 2.0 * PAD + (shown.div_ceil(8) as f64) * 60.0 - PAD / 2.0;
        svg.text(
            PAD + 360.0,
            y,
            &format!("and {} more heaps", heaps.len() - shown),
            "label",
        );
    }
    svg.finish(title)
}

/// Heaps as stacks of tokens: token `j` (from 1 at the bottom) of heap `i` is
/// the place `h<i>t<j>`, the heap's label `h<i>`.
pub fn svg_stacks(heaps: &[u64], marks: &Marks, title: &str) -> String {
    let labels: Vec<String> = (1..=heaps.len()).map(|i| format!("h{i}")).collect();
    svg_stacks_labelled(heaps, &labels, "", marks, title)
}

/// Stacks as [`svg_stacks`] draws them, each labelled with its own text (the
/// divisor game: its prime) while its place keeps the name `h<i>`, and a
/// caption above them where one is given (what a heap allows, what it stands
/// for).
pub fn svg_stacks_labelled(
    heaps: &[u64],
    labels: &[String],
    caption: &str,
    marks: &Marks,
    title: &str,
) -> String {
    if !drawn_whole(heaps) {
        return svg_numbers(heaps, marks, title);
    }
    let tallest = heaps.iter().copied().max().unwrap_or(0).max(5) as f64;
    let column = TOKEN * 1.9;
    let caption_width = caption.chars().count() as f64 * 9.0;
    let width = (2.0 * PAD + (heaps.len().max(3) as f64) * column).max(2.0 * PAD + caption_width);
    let top = if caption.is_empty() { 0.0 } else { 20.0 };
    let height = 2.0 * PAD + tallest * TOKEN + 24.0 + top;
    let mut svg = Svg::new(width, height);
    if !caption.is_empty() {
        svg.text(width / 2.0, PAD / 2.0 + 6.0, caption, "label");
    }
    for (i, &h) in heaps.iter().enumerate() {
        let x = PAD + (i as f64 + 0.5) * column;
        let base = height - PAD - 24.0;
        for j in 1..=h {
            let place = format!("h{}t{j}", i + 1);
            let class = if marks.last.contains(&place) {
                "token last"
            } else {
                "token"
            };
            svg.rounded(
                (
                    x - TOKEN * 0.8,
                    base - j as f64 * TOKEN,
                    TOKEN * 1.6,
                    TOKEN - 3.0,
                ),
                6.0,
                class,
                Some(&place),
            );
        }
        let place = format!("h{}", i + 1);
        svg.text_place(
            x,
            base + 14.0,
            &labels[i],
            label_class(marks, &place),
            &place,
        );
    }
    svg.finish(title)
}

/// Heaps as rows of pins: pin `k` (from 1 at the left) of heap `i` is the place
/// `h<i>p<k>`, the gap after it `h<i>g<k>`, the heap's label `h<i>`.
pub fn svg_rows(heaps: &[u64], marks: &Marks, title: &str) -> String {
    if !drawn_whole(heaps) {
        return svg_numbers(heaps, marks, title);
    }
    let longest = heaps.iter().copied().max().unwrap_or(0).max(6) as f64;
    let row = TOKEN * 1.7;
    let width = 2.0 * PAD + 40.0 + longest * TOKEN;
    let height = 2.0 * PAD + (heaps.len().max(1) as f64) * row;
    let mut svg = Svg::new(width, height);
    for (i, &h) in heaps.iter().enumerate() {
        let y = PAD + (i as f64 + 0.5) * row;
        let label = format!("h{}", i + 1);
        svg.text_place(PAD + 14.0, y, &label, label_class(marks, &label), &label);
        for k in 1..=h {
            let x = PAD + 40.0 + (k as f64 - 0.5) * TOKEN;
            let place = format!("h{}p{k}", i + 1);
            let class = if marks.last.contains(&place) {
                "token last"
            } else {
                "token"
            };
            svg.circle(x, y, TOKEN * 0.38, class, Some(&place));
            if k < h {
                let gap = format!("h{}g{k}", i + 1);
                svg.rect(
                    x + TOKEN * 0.38,
                    y - TOKEN * 0.5,
                    TOKEN * 0.24,
                    TOKEN,
                    "hit",
                    Some(&gap),
                );
            }
        }
    }
    svg.finish(title)
}

/// A circle of `n` pins on a disc: pin `k` (from 1 at the top, clockwise) is
/// the place `p<k>`. Larger circles are drawn as their number of pins.
pub fn svg_circle(n: u64, marks: &Marks, title: &str) -> String {
    let radius = 5.0 * TOKEN;
    let side = 2.0 * (PAD + radius + TOKEN);
    let centre = side / 2.0;
    let mut svg = Svg::new(side, side);
    svg.circle(centre, centre, radius + TOKEN * 0.7, "pit", None);
    if n > MOST_TOKENS {
        svg.text(centre, centre, &format!("{n} pins"), "count");
        return svg.finish(title);
    }
    for k in 1..=n {
        let angle = std::f64::consts::TAU * (k - 1) as f64 / n as f64;
        let (x, y) = (centre + radius * angle.sin(), centre - radius * angle.cos());
        let place = format!("p{k}");
        let class = if marks.last.contains(&place) {
            "token last"
        } else {
            "token"
        };
        svg.circle(x, y, TOKEN * 0.38, class, Some(&place));
    }
    svg.finish(title)
}

/// The heap (0-based) a place names: `h3`, `h3t2`, `h3p5` and `h3g1` all name
/// heap 3.
pub fn heap_of(place: &str) -> Option<usize> {
    let digits: String = place
        .strip_prefix('h')?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse::<usize>().ok()?.checked_sub(1)
}

/// The heap editor's tools.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::on_board("add", "one more in the heap"),
        Tool::on_board("remove", "one fewer in the heap"),
        Tool::whole("new", "a new heap of one"),
    ]
}

/// The heaps after using `tool` on the heap `place` names.
pub fn edit(mut heaps: Vec<u64>, place: &str, tool: &str) -> Result<Vec<u64>, GameError> {
    if tool == "new" {
        heaps.push(1);
        return Ok(heaps);
    }
    let i = heap_of(place)
        .filter(|&i| i < heaps.len())
        .ok_or_else(|| GameError::position(place, "not a heap of this position"))?;
    match tool {
        "add" => heaps[i] = heaps[i].saturating_add(1),
        "remove" => heaps[i] = heaps[i].saturating_sub(1),
        _ => return Err(GameError::position(tool, "tools are add, remove and new")),
    }
    Ok(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_name_their_heap_and_the_editor_keeps_heaps_in_place() {
        assert_eq!(heap_of("h12t3"), Some(11));
        assert_eq!(heap_of("h1g4"), Some(0));
        assert_eq!(heap_of("h0"), None);
        assert_eq!(heap_of("x1"), None);
        assert_eq!(edit(vec![3, 1], "h2p1", "remove").unwrap(), vec![3, 0]);
        assert_eq!(edit(vec![3], "h1", "new").unwrap(), vec![3, 1]);
        assert!(edit(vec![3], "h2", "add").is_err());
        let svg = svg_stacks(&[3, 1], &Marks::default(), "t");
        assert_eq!(svg.matches("data-place=\"h1t").count(), 3);
        let big = svg_stacks(&[u64::MAX], &Marks::default(), "t");
        assert!(big.contains("18446744073709551615"));
    }
}
