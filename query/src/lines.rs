//! Lines of a batch read as they come, from standard input or a request body:
//! each held only up to a limit, so that one enormous line costs its length in
//! a counter, not in memory.

/// A line of input, its newline (and a carriage return before it) removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line no longer than the limit.
    Held(Vec<u8>),
    /// A longer one: its first bytes, and how long it was.
    Long { start: Vec<u8>, bytes: usize },
}

/// How many bytes of a long line are kept to show it by.
const SHOWN: usize = 40;

impl Line {
    /// The line as text, or why it is not: too long (its length) or not UTF-8.
    pub fn text(self) -> Result<String, LineError> {
        match self {
            Line::Held(bytes) => String::from_utf8(bytes).map_err(|e| LineError::NotUtf8 {
                shown: String::from_utf8_lossy(e.as_bytes()).into_owned(),
            }),
            Line::Long { start, bytes } => Err(LineError::TooLong {
                shown: String::from_utf8_lossy(&start).into_owned(),
                bytes,
            }),
        }
    }
}

/// Why a line cannot be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    NotUtf8 { shown: String },
    TooLong { shown: String, bytes: usize },
}

/// Splits bytes into [`Line`]s, holding at most `limit` bytes of each.
#[derive(Debug)]
pub struct LineReader {
    limit: usize,
    current: Vec<u8>,
    /// The bytes of the current line, held or not.
    length: usize,
    ready: Vec<Line>,
}

impl LineReader {
    pub fn new(limit: usize) -> Self {
        LineReader {
            limit,
            current: Vec::new(),
            length: 0,
            ready: Vec::new(),
        }
    }

    /// Reads `bytes`, the next part of the input.
    pub fn push(&mut self, bytes: &[u8]) {
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            let (text, ends) = match piece.strip_suffix(b"\n") {
                Some(text) => (text, true),
                None => (piece, false),
            };
            let room = (self.limit + 1).saturating_sub(self.current.len());
            self.current
                .extend_from_slice(&text[..text.len().min(room)]);
            self.length += text.len();
            if ends {
                self.end_line();
            }
        }
    }

    /// The lines completed so far.
    pub fn lines(&mut self) -> std::vec::Drain<'_, Line> {
        self.ready.drain(..)
    }

    /// How many lines are completed and not taken.
    pub fn count(&self) -> usize {
        self.ready.len()
    }

    /// The end of the input: the last line, also without a newline.
    pub fn finish(&mut self) {
        if self.length > 0 {
            self.end_line();
        }
    }

    fn end_line(&mut self) {
        let mut bytes = std::mem::take(&mut self.current);
        let mut length = std::mem::replace(&mut self.length, 0);
        // The carriage return of a CRLF ending is not part of the line.
        if length <= bytes.len() && bytes.last() == Some(&b'\r') {
            bytes.pop();
            length -= 1;
        }
        self.ready.push(match length > self.limit {
            false => Line::Held(bytes),
            true => {
                bytes.truncate(SHOWN);
                Line::Long {
                    start: bytes,
                    bytes: length,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(chunks: &[&[u8]], limit: usize) -> Vec<Line> {
        let mut reader = LineReader::new(limit);
        let mut lines = Vec::new();
        for chunk in chunks {
            reader.push(chunk);
            lines.extend(reader.lines());
        }
        reader.finish();
        lines.extend(reader.lines());
        lines
    }

    #[test]
    fn lines_are_split_across_chunks_and_long_ones_only_counted() {
        let held = |s: &str| Line::Held(s.as_bytes().to_vec());
        assert_eq!(
            read(&[b"ab", b"c\r\n\nde", b"f"], 5),
            [held("abc"), held(""), held("def")]
        );
        assert_eq!(read(&[b"abcde\r\n"], 5), [held("abcde")]);
        let long = read(&[b"x", &[b'y'; 100], b"z\nok\n"], 5);
        assert_eq!(long[1], held("ok"));
        let Line::Long { start, bytes } = &long[0] else {
            panic!("{long:?}")
        };
        assert_eq!((start.len(), *bytes), (6, 102));
        assert_eq!(read(&[b"a\n"], 5), [held("a")]);
        assert!(read(&[], 5).is_empty());
        let text = Line::Held(vec![0xff, b'a']).text();
        assert!(matches!(text, Err(LineError::NotUtf8 { .. })), "{text:?}");
    }

    #[test]
    fn a_line_of_a_gigabyte_holds_no_more_than_the_limit() {
        let mut reader = LineReader::new(1000);
        let chunk = vec![b'1'; 1 << 20];
        for _ in 0..1024 {
            reader.push(&chunk);
            assert!(reader.current.capacity() < 4096);
        }
        reader.push(b"\n");
        let lines: Vec<Line> = reader.lines().collect();
        assert!(matches!(lines[..], [Line::Long { bytes, .. }] if bytes == 1 << 30));
    }
}
