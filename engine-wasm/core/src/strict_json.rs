//! JSON as the engine reads it: a key given twice in one object is refused
//! (serde_json keeps the last silently, so `{"rtt_ms": 30, "rtt_ms": 300}`
//! would run at 300 ms with no word), naming the key by its path. Used by
//! [`crate::Scenario::parse_json`], so the CLI and the page refuse alike.

use crate::scenario::ValidationError;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// Refuse a JSON document in which an object gives one key twice, naming
/// the key by its path (`hosts[0].nic_bps`) and where the second one is.
/// Anything else (not JSON at all, say) is left to the parser that
/// follows, which says what is wrong.
pub fn no_duplicate_keys(text: &str) -> Result<(), ValidationError> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let walk = Walk {
        path: String::new(),
        found: &found,
    };
    match (walk.deserialize(&mut de), found.into_inner()) {
        (Err(e), Some(path)) => Err(ValidationError {
            field: path,
            value: String::new(),
            message: format!(
                "given more than once in the same object (the second at line {} column {}); \
                     give each key once",
                e.line(),
                e.column()
            ),
        }),
        _ => Ok(()),
    }
}

/// Walks a JSON value, keeping the path, and fails on a repeated key
/// (its path in `found`).
struct Walk<'a> {
    path: String,
    found: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while seq
            .next_element_seed(Walk {
                path: format!("{}[{i}]", self.path),
                found: self.found,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key) {
                let e = de::Error::custom(format!("{path}: given more than once"));
                *self.found.borrow_mut() = Some(path);
                return Err(e);
            }
            map.next_value_seed(Walk {
                path,
                found: self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_key_given_twice_with_its_path() {
        assert!(no_duplicate_keys(r#"{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}"#).is_ok());
        let e = no_duplicate_keys(r#"{"a":1,"a":2}"#).unwrap_err();
        assert_eq!(e.field, "a");
        let e = no_duplicate_keys(r#"{"h":[{"x":1},{"y":1,"y":2}]}"#).unwrap_err();
        assert_eq!(e.field, "h[1].y");
        assert!(e.message.contains("line 1 column"), "{}", e.message);
        // Not JSON: left to the parser.
        assert!(no_duplicate_keys("{not json").is_ok());
    }
}
