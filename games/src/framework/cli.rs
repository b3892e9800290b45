//! A game's registry options as command-line flags, for both tools: each
//! option of an [`Entry`] for a [`Purpose`] becomes an argument of the game's
//! subcommand, and the parsed arguments become [`Options`] again. Everything
//! else on the command lines is fixed and derived with clap's derive API.
//!
//! ```
//! use games::cli::{option_args, given_options};
//! use games::registry;
//! use games::spec::Purpose;
//!
//! let dots = registry::entry("dots").unwrap();
//! let command = option_args(clap::Command::new("dots"), dots, Purpose::Query);
//! let matches = command.get_matches_from(["dots", "--size", "2x3"]);
//! let options = given_options(dots, Purpose::Query, &matches);
//! assert_eq!(options.get("size"), Some("2x3"));
//! ```

use crate::spec::{Entry, OptionSpec, Options, Purpose, Values};
use clap::{Arg, ArgAction, ArgMatches, Command};

/// `command` with an argument for each of `entry`'s options for `purpose`.
pub fn option_args(command: Command, entry: &'static Entry, purpose: Purpose) -> Command {
    entry.options_for(purpose).fold(command, |command, option| {
        command.arg(option_arg(option, purpose))
    })
}

/// One option as an argument: a switch, the positional list (chess
/// materials), or a long flag with a value; its help gives the values it takes
/// and its default.
fn option_arg(option: &'static OptionSpec, purpose: Purpose) -> Arg {
    if option.values == Values::Flag {
        return Arg::new(option.name)
            .long(option.name)
            .action(ArgAction::SetTrue)
            .help(option.help);
    }
    let mut help = format!("{} [{}", option.help, option.describe_values());
    if let Some(default) = option.default_for(purpose) {
        help.push_str(&format!("; default {default}"));
    }
    // Making tables, a variant may name several values: one set each.
    if purpose == Purpose::Generate && option.scope.is_variant() {
        help.push_str("; comma-separated for several");
    }
    help.push(']');
    let arg = Arg::new(option.name).help(help);
    match option.positional {
        true => arg.num_args(0..).value_name(option.name.to_uppercase()),
        false => arg.long(option.name).value_name("VALUE"),
    }
}

/// The options given for `entry` in `matches` (parsed by a command made with
/// [`option_args`] for the same `purpose`), not yet completed: a switch given
/// is `yes`, a positional list is joined with commas.
pub fn given_options(entry: &Entry, purpose: Purpose, matches: &ArgMatches) -> Options {
    let mut options = Options::with(purpose, []);
    for option in entry.options_for(purpose) {
        if option.values == Values::Flag {
            if matches.get_flag(option.name) {
                options.set(option.name, "yes");
            }
            continue;
        }
        let values: Vec<&str> = matches
            .get_many::<String>(option.name)
            .map(|v| v.map(String::as_str).collect())
            .unwrap_or_default();
        if !values.is_empty() {
            options.set(option.name, &values.join(","));
        }
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    /// Every game's options parse for every purpose, and come back as given.
    #[test]
    fn every_option_parses_back() {
        for entry in registry::entries() {
            for purpose in [Purpose::Query, Purpose::Generate, Purpose::Play] {
                let command = option_args(Command::new(entry.id), entry, purpose);
                command.clone().debug_assert();
                let matches = command.get_matches_from([entry.id]);
                assert_eq!(given_options(entry, purpose, &matches).iter().count(), 0);
            }
        }
        let chess = registry::entry("chess").unwrap();
        let command = option_args(Command::new("chess"), chess, Purpose::Generate);
        let matches = command.get_matches_from(["chess", "KQvK", "KRvK", "--pawnless"]);
        let options = given_options(chess, Purpose::Generate, &matches);
        assert_eq!(options.get("materials"), Some("KQvK,KRvK"));
        assert_eq!(options.get("pawnless"), Some("yes"));
    }
}
