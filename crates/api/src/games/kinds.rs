//! The game kinds this server plays. Adding a game is one line here.

use rules_cancel_hearts::CancelHearts;
use rules_lost_heir::LostHeir;

use super::any_game::{GameKind, KindOf};

static LOST_HEIR: KindOf<LostHeir> = KindOf::new();
static CANCELLATION_HEARTS: KindOf<CancelHearts> = KindOf::new();

/// Every kind, by its api name.
pub fn all() -> [&'static dyn GameKind; 2] {
    [&LOST_HEIR, &CANCELLATION_HEARTS]
}

/// The kind named `name` (`lost-heir`, `cancellation-hearts`).
pub fn find(name: &str) -> Option<&'static dyn GameKind> {
    all().into_iter().find(|k| k.name() == name)
}
