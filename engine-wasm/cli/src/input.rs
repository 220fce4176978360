//! What the CLI reads and how it quotes it back (issue 28): a leading UTF-8
//! byte-order mark is dropped, a JSON key given twice in one object is
//! refused (serde_json keeps the last silently), and long values are
//! clipped in messages, so a 50 MB string or a number written in 300
//! digits is not echoed whole.

pub use sawtooth_core::strict_json::no_duplicate_keys;
use sawtooth_core::ValidationError;

/// Values longer than this many characters are clipped in messages.
pub const CLIP_CHARS: usize = 80;
/// A message line longer than this, once its values are clipped, is cut.
const LINE_CHARS: usize = 2000;

/// `text` without a leading UTF-8 byte-order mark (some editors on Windows
/// write one; JSON parsers refuse it at "line 1 column 1").
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `s` as is if at most `CLIP_CHARS` characters, else its first
/// `CLIP_CHARS` and how many more there were.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(CLIP_CHARS) {
        None => s.to_string(),
        Some((at, _)) => format!("{}…({} more characters)", &s[..at], s[at..].chars().count()),
    }
}

/// `s` is a value `clip` shortened to `limit` characters (or the first word of one): clipping
/// twice would count the marker as the value.
fn clipped_already(s: &str, limit: usize) -> bool {
    let Some((at, _)) = s.char_indices().nth(limit) else {
        return false;
    };
    let Some(rest) = s[at..].strip_prefix("…(") else {
        return false;
    };
    let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    digits.len() < rest.len() && (digits.is_empty() || digits == " more characters)")
}

/// A long value for a message: a number in the shortest exponent form
/// (1e-300, not 300 digits) if that is short, else clipped.
fn shorten(s: &str) -> String {
    if s.chars().count() <= CLIP_CHARS || clipped_already(s, CLIP_CHARS) {
        return s.to_string();
    }
    if let Ok(v) = s.parse::<f64>() {
        let e = format!("{v:e}");
        if e.len() <= CLIP_CHARS {
            return e;
        }
    }
    clip(s)
}

/// A message with its long values shortened: text between backticks or
/// double quotes, and words, longer than `CLIP_CHARS` characters (numbers
/// in exponent form), then any line still longer than `LINE_CHARS`.
pub fn clip_message(text: &str) -> String {
    text.split_inclusive('\n').map(clip_line).collect()
}

fn clip_line(line: &str) -> String {
    if line.chars().count() <= CLIP_CHARS {
        return line.to_string();
    }
    let mut out = String::new();
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' || c == '"' {
            // A quoted value: clip what is inside, keep the quotes.
            if let Some(end) = rest[1..].find(c) {
                out.push(c);
                out.push_str(&shorten(&rest[1..1 + end]));
                out.push(c);
                rest = &rest[end + 2..];
                continue;
            }
        }
        if c.is_whitespace() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        // A word: up to whitespace or a quote.
        let end = rest
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c.is_whitespace() || c == '`' || c == '"')
            .map_or(rest.len(), |(i, _)| i);
        let word = &rest[..end];
        // Keep punctuation that ends the word ("= 0.000…1:") outside it.
        let core = word.trim_end_matches([':', ',', ';', ')', ']']);
        out.push_str(&shorten(core));
        out.push_str(&word[core.len()..]);
        rest = &rest[end..];
    }
    let newline = out.ends_with('\n');
    let body = out.trim_end_matches('\n');
    if body.chars().count() <= LINE_CHARS || clipped_already(body, LINE_CHARS) {
        return out;
    }
    let at = body
        .char_indices()
        .nth(LINE_CHARS)
        .map_or(body.len(), |(i, _)| i);
    format!(
        "{}…({} more characters){}",
        &body[..at],
        body[at..].chars().count(),
        if newline { "\n" } else { "" }
    )
}

/// One scenario error for a message: `field = value: message`, the value
/// and the message shortened.
pub fn describe(e: &ValidationError) -> String {
    let message = clip_message(&e.message);
    if e.value.is_empty() {
        format!("{}: {message}", e.field)
    } else {
        format!("{} = {}: {message}", e.field, shorten(&e.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_long_values_and_keeps_short_ones() {
        assert_eq!(clip("abc"), "abc");
        let long = "x".repeat(100);
        assert_eq!(
            clip(&long),
            format!("{}…(20 more characters)", "x".repeat(80))
        );
        // Characters, not bytes.
        let wide = "é".repeat(81);
        assert_eq!(
            clip(&wide),
            format!("{}…(1 more characters)", "é".repeat(80))
        );
        let tiny = format!("{}", 1e-300);
        assert_eq!(shorten(&tiny), "1e-300");
        let msg = format!("rtt_ms = {tiny}: must be between 0 and 1000 ms");
        assert_eq!(
            clip_message(&msg),
            "rtt_ms = 1e-300: must be between 0 and 1000 ms"
        );
        let msg = format!("unknown variant `{long}`, expected one of `a`, `b`\nnext");
        assert_eq!(
            clip_message(&msg),
            format!(
                "unknown variant `{}…(20 more characters)`, expected one of `a`, `b`\nnext",
                "x".repeat(80)
            )
        );
        let spaced = format!("value \"{}\" is bad", "a b ".repeat(50));
        assert!(clip_message(&spaced).contains("…(120 more characters)\" is bad"));
        let many = "word ".repeat(1000);
        let clipped = clip_message(&many);
        assert!(clipped.ends_with("…(3000 more characters)"), "{clipped}");
        let short = "no lab x; one of a, b";
        assert_eq!(clip_message(short), short);
        // Clipping is idempotent.
        for m in [
            format!("profile = {}: is bad", clip(&long)),
            clip_message(&msg),
            clip_message(&spaced),
            clipped.clone(),
        ] {
            assert_eq!(clip_message(&m), m);
        }
    }

    #[test]
    fn strips_only_a_leading_byte_order_mark() {
        assert_eq!(strip_bom("\u{feff}{}"), "{}");
        assert_eq!(strip_bom("{}\u{feff}"), "{}\u{feff}");
    }
}
