//! A small builder for the boards games draw as SVG (see
//! [`crate::capability::Picture`]). Shapes carry a class, styled by the page (and
//! by the document's own defaults when shown alone), and optionally the place a
//! player clicks, as `data-place`.

use std::fmt::Write;

/// Colours for the classes boards use, for a board shown on its own; the page
/// restyles them.
const STYLE: &str = "\
.bg{fill:#f4efe6}.light{fill:#eeeed2}.dark{fill:#769656}.cell{fill:#f4efe6;stroke:#8a8170;stroke-width:1}\
.covered{fill:#5d5246}.mine{fill:#2f6fb3}.theirs{fill:#c0392b}.neutral{fill:#7f8c8d}\
.token{fill:#d9a441;stroke:#7a5a16;stroke-width:1.5}.pit{fill:#e8dcc4;stroke:#8a7350;stroke-width:1.5}\
.stone{fill:#444}.edge{stroke:#ccc;stroke-width:3;stroke-dasharray:4 4}.drawn{stroke:#222;stroke-width:5}\
.dot{fill:#222}.hit{fill:transparent;stroke:transparent}.owner1{fill:#9cc3ec}.owner2{fill:#f0a8a0}\
.done{fill:#d8d2c4}.label{font:14px sans-serif;fill:#333}.big{font:bold 22px sans-serif;fill:#222}\
.count{font:bold 18px sans-serif;fill:#222}.piece{font:40px 'DejaVu Sans',sans-serif;pointer-events:none}\
.pw{fill:#fff;stroke:#222;stroke-width:1.2}.pb{fill:#111}\
.said{fill:#9cc3ec}.last{fill:#f7e27c}.lastline{stroke:#e0a800}.lastlabel{fill:#b07d00;font-weight:bold}.lastbox{fill:none;stroke:#e0a800;stroke-width:5;pointer-events:none}.place{cursor:pointer}\
text,line,circle{pointer-events:none}text.place,circle.place{pointer-events:auto}";

/// An SVG document being drawn, `width` x `height` user units.
#[derive(Debug)]
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// `text` with the characters XML gives a meaning escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn place_attribute(place: Option<&str>) -> String {
    match place {
        Some(p) => format!(" data-place=\"{}\"", escape(p)),
        None => String::new(),
    }
}

fn classes(class: &str, place: Option<&str>) -> String {
    match place {
        Some(_) => format!("{class} place"),
        None => class.to_string(),
    }
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Self {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, place: Option<&str>) {
        let _ = write!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" class=\"{}\"{}/>",
            classes(class, place),
            place_attribute(place)
        );
    }

    /// A rectangle with rounded corners of radius `r`; `(x, y, w, h)` as for
    /// [`Svg::rect`].
    pub fn rounded(
        &mut self,
        (x, y, w, h): (f64, f64, f64, f64),
        r: f64,
        class: &str,
        place: Option<&str>,
    ) {
        let _ = write!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{r}\" class=\"{}\"{}/>",
            classes(class, place),
            place_attribute(place)
        );
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, class: &str, place: Option<&str>) {
        let _ = write!(
            self.body,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" class=\"{}\"{}/>",
            classes(class, place),
            place_attribute(place)
        );
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        let _ = write!(
            self.body,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" class=\"{class}\"/>"
        );
    }

    /// Text centred on `(x, y)`.
    pub fn text(&mut self, x: f64, y: f64, text: &str, class: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" dominant-baseline=\"central\" class=\"{class}\">{}</text>",
            escape(text)
        );
    }

    /// Text centred on `(x, y)` that can be clicked.
    pub fn text_place(&mut self, x: f64, y: f64, text: &str, class: &str, place: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" dominant-baseline=\"central\" class=\"{}\"{}>{}</text>",
            classes(class, Some(place)),
            place_attribute(Some(place)),
            escape(text)
        );
    }

    /// The finished document, with `title` for screen readers.
    pub fn finish(self, title: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title><style>{STYLE}</style><rect width=\"{w}\" height=\"{h}\" class=\"bg\"/>{body}</svg>",
            w = self.width,
            h = self.height,
            t = escape(title),
            body = self.body
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_text_are_escaped() {
        let mut svg = Svg::new(10.0, 10.0);
        svg.rect(0.0, 0.0, 1.0, 1.0, "cell", Some("a\"1"));
        svg.text(1.0, 1.0, "<b>", "label");
        let doc = svg.finish("t&t");
        assert!(doc.contains("data-place=\"a&quot;1\""));
        assert!(doc.contains("class=\"cell place\""));
        assert!(doc.contains("&lt;b&gt;"));
        assert!(doc.contains("aria-label=\"t&amp;t\""));
    }
}
