//! Who sits where, read from a game's seat rows: the seat a player holds,
//! the seats the server plays (bots, seats on autoplay) and at what level,
//! the forfeited seats, and which of the server's seats must act next.
//! Pure and a leaf: the decision core (`decide/`), the bot driver and the
//! service's reads all ask these, and none of them is imported back.

use cards::{Seat, SeatSet};

use super::any_game::AnyGame;
use super::status::{BotLevel, GameStatus};
use crate::db::models::{GameRow, SeatWithName};

/// The seat `player_id` holds, per the seats table.
pub(super) fn seat_of(seats: &[SeatWithName], player_id: &str) -> Option<Seat> {
    seats
        .iter()
        .find(|s| s.seat.player_id.as_deref() == Some(player_id))
        .and_then(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
}

/// The seats the server plays: bots, and players' seats on autoplay.
pub(super) fn bot_seats(seats: &[SeatWithName]) -> SeatSet {
    seats
        .iter()
        .filter(|s| s.seat.is_bot || s.seat.autoplay)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect()
}

/// The level the server plays `seat` at (when it is a bot seat or on
/// autoplay).
pub(super) fn bot_level_of(seats: &[SeatWithName], seat: Seat) -> BotLevel {
    seats
        .iter()
        .find(|s| s.seat.seat == i32::from(seat.number()))
        .map_or(BotLevel::Sensible, |s| s.seat.bot_level)
}

/// The seats that forfeited on a deadline (never among the winners).
pub(super) fn forfeited_seats(seats: &[SeatWithName]) -> SeatSet {
    seats
        .iter()
        .filter(|s| s.seat.forfeited)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect()
}

/// The bot seat (or seat on autoplay) the server plays next, if one must
/// act: the lowest such seat in `to_act`.
pub(super) fn bot_to_act(
    row: &GameRow,
    seats: &[SeatWithName],
    game: &dyn AnyGame,
) -> Option<Seat> {
    if row.status != GameStatus::InProgress {
        return None;
    }
    let bots = bot_seats(seats);
    game.to_act().iter().find(|s| bots.contains(*s))
}

/// The seat the server plays next, if it must act and is the expert's.
pub(super) fn expert_to_act(
    row: &GameRow,
    seats: &[SeatWithName],
    game: &dyn AnyGame,
) -> Option<Seat> {
    bot_to_act(row, seats, game).filter(|&seat| bot_level_of(seats, seat) == BotLevel::Expert)
}
