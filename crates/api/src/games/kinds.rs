//! The game kinds this server plays: one entry per kind of the one list,
//! `game_record::for_each_kind!`. Adding a game adds it here by itself
//! (ARCHITECTURE.md, "Adding a third game").

use super::any_game::{GameKind, KindOf};

/// Builds [`all`] from the registry's entries: a `KindOf` per engine.
macro_rules! kind_table {
    ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
        /// Every kind, in the registry's order.
        pub fn all() -> [&'static dyn GameKind; game_record::GameKind::ALL.len()] {
            [$({
                static KIND: KindOf<$engine> = KindOf::new();
                &KIND as &'static dyn GameKind
            }),*]
        }
    };
}

game_record::for_each_kind!(kind_table);

/// The kind named `name` (`lost-heir`, `cancellation-hearts`).
pub fn find(name: &str) -> Option<&'static dyn GameKind> {
    all().into_iter().find(|k| k.name() == name)
}
