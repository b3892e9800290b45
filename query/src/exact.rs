//! Whole numbers in JSON as JavaScript reads them exactly: a number up to
//! 2^53 - 1 either way, a string of its digits beyond (a Nim sum of heaps of
//! 10^18, a score of numbers that large), where a JavaScript client would
//! round the number silently. Reading takes either. Used with
//! `#[serde(with = "...")]` on the answers' fields.

use serde::{Deserialize, Deserializer, Serializer};

/// The largest whole number a JavaScript number holds exactly.
const MOST: u64 = (1 << 53) - 1;

/// A number as written: a JSON number or a string of digits.
#[derive(Deserialize)]
#[serde(untagged)]
enum Written {
    Unsigned(u64),
    Signed(i64),
    Text(String),
}

impl Written {
    fn parse<T: std::str::FromStr + TryFrom<u64> + TryFrom<i64>, E: serde::de::Error>(
        self,
    ) -> Result<T, E> {
        let out_of_range = || E::custom("a whole number out of range");
        match self {
            Written::Unsigned(n) => T::try_from(n).map_err(|_| out_of_range()),
            Written::Signed(n) => T::try_from(n).map_err(|_| out_of_range()),
            Written::Text(text) => text
                .parse()
                .map_err(|_| E::custom(format!("'{text}' is not a whole number"))),
        }
    }
}

/// `u64` fields.
pub mod unsigned {
    use super::*;

    pub fn serialize<S: Serializer>(n: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        match *n <= MOST {
            true => serializer.serialize_u64(*n),
            false => serializer.collect_str(n),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        Written::deserialize(deserializer)?.parse()
    }
}

/// `i64` fields.
pub mod signed {
    use super::*;

    pub fn serialize<S: Serializer>(n: &i64, serializer: S) -> Result<S::Ok, S::Error> {
        match n.unsigned_abs() <= MOST {
            true => serializer.serialize_i64(*n),
            false => serializer.collect_str(n),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
        Written::deserialize(deserializer)?.parse()
    }
}

/// `Option<u64>` fields.
pub mod optional {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize, Deserialize)]
    struct Exact(#[serde(with = "unsigned")] u64);

    pub fn serialize<S: Serializer>(n: &Option<u64>, serializer: S) -> Result<S::Ok, S::Error> {
        n.map(Exact).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<u64>, D::Error> {
        Ok(Option::<Exact>::deserialize(deserializer)?.map(|e| e.0))
    }

    /// `Option<Vec<u64>>` fields.
    pub mod list {
        use super::*;

        pub fn serialize<S: Serializer>(
            list: &Option<Vec<u64>>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            let exact: Option<Vec<Exact>> = list
                .as_ref()
                .map(|l| l.iter().copied().map(Exact).collect());
            exact.serialize(serializer)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<Vec<u64>>, D::Error> {
            let exact = Option::<Vec<Exact>>::deserialize(deserializer)?;
            Ok(exact.map(|l| l.into_iter().map(|e| e.0).collect()))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Answer {
        #[serde(with = "super::unsigned")]
        sum: u64,
        #[serde(with = "super::signed")]
        score: i64,
        #[serde(with = "super::optional::list")]
        values: Option<Vec<u64>>,
    }

    #[test]
    fn numbers_past_what_javascript_holds_are_written_as_strings() {
        let most = (1u64 << 53) - 1;
        let answer = Answer {
            sum: most + 2,
            score: -(most as i64) - 1,
            values: Some(vec![most, most + 1]),
        };
        let json = serde_json::to_string(&answer).unwrap();
        assert_eq!(
            json,
            r#"{"sum":"9007199254740993","score":"-9007199254740992","values":[9007199254740991,"9007199254740992"]}"#
        );
        assert_eq!(serde_json::from_str::<Answer>(&json).unwrap(), answer);
        let small = r#"{"sum":5,"score":-3,"values":null}"#;
        let read: Answer = serde_json::from_str(small).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), small);
    }
}
