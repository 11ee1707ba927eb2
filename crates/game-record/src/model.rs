//! A whole game as a record: who played, the seeds, every move in order,
//! and what the engine derived from them (deals, tricks, scores, result).

use cards::{Outcome, Ruleset, Seed, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engines::{Engine, Refusal, TrickEnd};
use crate::fairness::{commitment, dealing_seed};
use crate::kinds::EngineVisitor;
pub use crate::kinds::GameKind;

/// Who made a move (for the audit): the seated player, a bot playing for
/// the seat, or the server when the seat's deadline passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordActor))]
pub enum Actor {
    #[default]
    Player,
    Bot,
    Deadline,
}

impl Actor {
    pub const fn code(self) -> &'static str {
        match self {
            Actor::Player => "player",
            Actor::Bot => "bot",
            Actor::Deadline => "deadline",
        }
    }

    pub fn from_code(code: &str) -> Option<Actor> {
        [Actor::Player, Actor::Bot, Actor::Deadline]
            .into_iter()
            .find(|a| a.code() == code)
    }
}

/// One move as played: the seat, the move in the engine's JSON form
/// (`{"type":"bid","points":7}`, `{"type":"play","card":"QS"}`, …) and who made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordMove))]
pub struct RecordedMove {
    pub seat: u8,
    #[serde(rename = "move")]
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::a_move))]
    pub mv: Value,
    #[serde(default)]
    pub actor: Actor,
}

impl RecordedMove {
    pub fn new(seat: u8, mv: Value, actor: Actor) -> RecordedMove {
        RecordedMove { seat, mv, actor }
    }

    /// A player's move from a typed engine move.
    pub fn typed<M: Serialize>(seat: u8, mv: &M, actor: Actor) -> RecordedMove {
        let mv = serde_json::to_value(mv).expect("engine moves serialize to JSON");
        RecordedMove { seat, mv, actor }
    }
}

/// What a resignation does (the game's policy when it was made).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordResignPolicy))]
pub enum ResignPolicy {
    /// The bot played the seat on (the moves after it are the bot's); the
    /// seat is forfeited: never among the winners.
    Bot,
    /// The game ended there: the seat's side forfeited, the winners the
    /// best of the others by the standings then (`Ruleset::stopped`).
    EndGame,
}

impl ResignPolicy {
    pub const fn code(self) -> &'static str {
        match self {
            ResignPolicy::Bot => "bot",
            ResignPolicy::EndGame => "end_game",
        }
    }

    pub fn from_code(code: &str) -> Option<ResignPolicy> {
        [ResignPolicy::Bot, ResignPolicy::EndGame]
            .into_iter()
            .find(|p| p.code() == code)
    }
}

/// A seat's resignation, at its place in the move list: what the api
/// knows of it ([`GameInfo::resigned`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resign {
    pub seat: u8,
    /// How many moves were played before it.
    pub after_moves: usize,
    pub policy: ResignPolicy,
}

/// A resignation as the record states it: where, what it did, and the
/// seats it forfeited (derived: the seat under `bot`, its side under
/// `end_game`), which are never among the winners.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordResignation))]
pub struct Resignation {
    pub seat: u8,
    /// How many moves were played before it (its place).
    pub after_moves: usize,
    pub policy: ResignPolicy,
    pub forfeited: Vec<u8>,
}

/// A hint the expert gave a seat while the game ran (the api's
/// `hint_given`, in a game created with hints: never a rated one): where,
/// and the move it suggested. Not a move: building, replaying and
/// verifying a record pass over it, checking only that its seat exists
/// and its place is within the moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordHint))]
pub struct HintUsed {
    pub seat: u8,
    /// How many moves were played before it (the decision's place in the
    /// move list).
    pub ply: usize,
    /// The move suggested, in the engine's JSON form.
    #[serde(rename = "move")]
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::a_move))]
    pub mv: Value,
}

/// Everything about a game that is not a move: what the api stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameInfo {
    pub kind: GameKind,
    /// The engine's configuration in its JSON form.
    pub config: Value,
    /// Player names by seat.
    pub players: Vec<String>,
    /// RFC 3339 timestamps supplied by the caller (the library has no clock).
    pub created: Option<String>,
    pub ended: Option<String>,
    /// The server's secret seed, revealed at the end.
    pub server_seed: Seed,
    /// What each seat added when joining (`None`: nothing), by seat.
    pub entropy: Vec<Option<String>>,
    /// A seat resigned (the api's `seat_resigned`), if one did.
    pub resigned: Option<Resign>,
    /// The hints given, in the order of the log.
    pub hints: Vec<HintUsed>,
}

/// One card played to a trick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordPlay))]
pub struct Play {
    pub seat: u8,
    /// The card's code, of the game's deck.
    pub card: String,
    #[serde(default)]
    pub actor: Actor,
}

/// A trick: its cards in play order and who took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordTrick))]
pub struct TrickRecord {
    /// 1 for the round's first trick (tricks set aside count too).
    pub number: u32,
    pub plays: Vec<Play>,
    /// Who took it; `None` if it was set aside (CH-9) or is unfinished.
    pub winner: Option<u8>,
    /// Set aside under Cancellation Hearts' carry-over variant (CH-9).
    #[serde(default)]
    pub set_aside: bool,
}

/// What happened in a round, in order: moves other than plays, and tricks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordEvent))]
pub enum Event {
    Move(RecordedMove),
    Trick(TrickRecord),
}

/// One round: its deal, what happened, its line of the score sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordRound))]
pub struct RoundRecord {
    /// 1 for the first round.
    pub number: u32,
    pub dealer: u8,
    /// Cancellation Hearts' pass direction (CH-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<String>,
    /// Every hand as dealt, by seat (public once the game is over, G-2).
    pub hands: Vec<Vec<String>>,
    /// Cancellation Hearts' kitty as dealt (CH-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kitty: Option<Vec<String>>,
    pub events: Vec<Event>,
    /// The engine's score-sheet row for the round, once it is over.
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::score_row))]
    pub score: Option<Value>,
}

/// The end of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = RecordResult))]
pub struct GameResult {
    /// Final score by seat (partners share their side's).
    pub scores: Vec<i32>,
    pub winners: Vec<u8>,
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        GameResult {
            scores: outcome.scores,
            winners: outcome.winners.iter().map(|s| s.number()).collect(),
        }
    }
}

/// A whole game: the portable record, in JSON via serde and in
/// text via [`GameRecord::to_text`] (`docs/record-format.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = GameRecord))]
pub struct GameRecord {
    pub kind: GameKind,
    /// The configuration, canonical JSON form (defaults filled in).
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::config))]
    pub config: Value,
    /// Player names by seat.
    pub players: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// SHA-256 of the server seed, published before the first deal.
    pub commitment: String,
    /// The server seed, revealed.
    pub seed: Seed,
    /// Each seat's entropy, by seat.
    pub entropy: Vec<Option<String>>,
    /// The seed every deal was shuffled from ([`dealing_seed`]).
    pub dealing_seed: Seed,
    /// A seat's resignation, when one resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resignation: Option<Resignation>,
    /// The hints the expert gave while the game ran (absent when none:
    /// records written before hints read as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<HintUsed>,
    pub rounds: Vec<RoundRecord>,
    /// `None` while the game is unfinished.
    pub result: Option<GameResult>,
}

/// Why a record could not be built from a game's info and moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("bad configuration: {0}")]
    Config(String),
    #[error("{expected} players, but {given} names")]
    PlayerNames { expected: u8, given: usize },
    #[error("{expected} players, but entropy for {given} seats")]
    EntropyCount { expected: u8, given: usize },
    #[error("bad resignation: {0}")]
    Resignation(String),
    #[error("bad hint: {0}")]
    Hint(String),
    #[error("move {index} by seat {seat} refused ({code}{}): {message}",
        rule.as_deref().map(|r| format!(", {r}")).unwrap_or_default())]
    IllegalMove {
        /// 0-based position in the move list.
        index: usize,
        seat: u8,
        code: String,
        rule: Option<String>,
        message: String,
    },
}

impl GameRecord {
    /// Builds the record of a game by replaying `moves` through the engine
    /// from the dealing seed (G-1). Every move is checked; the first refused
    /// one is reported with the engine's code and ruling.
    pub fn build(info: &GameInfo, moves: &[RecordedMove]) -> Result<GameRecord, BuildError> {
        struct Build<'a>(&'a GameInfo, &'a [RecordedMove]);
        impl EngineVisitor for Build<'_> {
            type Output = Result<GameRecord, BuildError>;
            fn visit<E: Engine + Ruleset>(self) -> Self::Output {
                build_with::<E>(self.0, self.1)
            }
        }
        info.kind.visit(Build(info, moves))
    }

    /// The game's info (everything but the moves).
    pub fn info(&self) -> GameInfo {
        GameInfo {
            kind: self.kind,
            config: self.config.clone(),
            players: self.players.clone(),
            created: self.created.clone(),
            ended: self.ended.clone(),
            server_seed: self.seed,
            entropy: self.entropy.clone(),
            resigned: self.resignation.as_ref().map(|r| Resign {
                seat: r.seat,
                after_moves: r.after_moves,
                policy: r.policy,
            }),
            hints: self.hints.clone(),
        }
    }

    /// Every move in play order.
    pub fn moves(&self) -> Vec<RecordedMove> {
        let mut moves = Vec::new();
        for round in &self.rounds {
            for event in &round.events {
                match event {
                    Event::Move(mv) => moves.push(mv.clone()),
                    Event::Trick(trick) => moves.extend(trick.plays.iter().map(|p| {
                        let mv = serde_json::json!({"type": "play", "card": p.card});
                        RecordedMove::new(p.seat, mv, p.actor)
                    })),
                }
            }
        }
        moves
    }

    /// The game as `viewer` saw it after its first `moves` moves (replay
    /// to any move): the engine's view in its JSON form (G-2). The
    /// caller decides who may ask for what: a seat's own view at any point,
    /// and [`Viewer::Omniscient`] (the whole table) only once the game is
    /// over, when its full record is public.
    pub fn view_after(&self, moves: usize, viewer: Viewer) -> Result<Value, BuildError> {
        let all = self.moves();
        view_after(&self.info(), &all[..moves.min(all.len())], viewer)
    }

    /// Whether the game reached its end.
    pub fn is_finished(&self) -> bool {
        self.result.is_some()
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serializes to JSON")
    }
}

/// The game after `moves` (all of them), as `viewer` sees it: the engine's
/// view in its JSON form. See [`GameRecord::view_after`].
pub fn view_after(
    info: &GameInfo,
    moves: &[RecordedMove],
    viewer: Viewer,
) -> Result<Value, BuildError> {
    struct ViewAfter<'a>(&'a GameInfo, &'a [RecordedMove], Viewer);
    impl EngineVisitor for ViewAfter<'_> {
        type Output = Result<Value, BuildError>;
        fn visit<E: Engine + Ruleset>(self) -> Self::Output {
            replay_to::<E>(self.0, self.1).map(|g| g.view_json(self.2))
        }
    }
    info.kind.visit(ViewAfter(info, moves, viewer))
}

fn replay_to<E: Engine>(info: &GameInfo, moves: &[RecordedMove]) -> Result<E, BuildError> {
    let dealing = dealing_seed(&info.server_seed, &info.entropy);
    let mut game = E::start(&info.config, dealing).map_err(BuildError::Config)?;
    check_seat_lists(info, game.players())?;
    for (index, mv) in moves.iter().enumerate() {
        game.play(mv.seat, &mv.mv)
            .map_err(|refusal| illegal(index, mv.seat, refusal))?;
    }
    Ok(game)
}

fn build_with<E: Engine>(
    info: &GameInfo,
    moves: &[RecordedMove],
) -> Result<GameRecord, BuildError> {
    let dealing = dealing_seed(&info.server_seed, &info.entropy);
    let mut game = E::start(&info.config, dealing).map_err(BuildError::Config)?;
    check_seat_lists(info, game.players())?;
    let mut builder = Builder {
        rounds: vec![round_start(&game)],
        trick: Vec::new(),
        scored: 0,
    };
    let mut resignation = None;
    for (index, mv) in moves.iter().enumerate() {
        if index == info.resigned.map_or(usize::MAX, |r| r.after_moves) {
            resignation = resigned_now(info, &game, moves.len())?;
        }
        game.play(mv.seat, &mv.mv)
            .map_err(|refusal| illegal(index, mv.seat, refusal))?;
        builder.record(info.kind, &game, mv);
    }
    if info.resigned.is_some_and(|r| r.after_moves == moves.len()) {
        resignation = resigned_now(info, &game, moves.len())?;
    }
    if info.resigned.is_some() && resignation.is_none() {
        return Err(BuildError::Resignation(format!(
            "it is placed after more moves than the record's {}",
            moves.len()
        )));
    }
    check_hints(info, game.players(), moves.len())?;
    builder.close_unfinished_trick();
    let result = match &resignation {
        Some(r) if r.policy == ResignPolicy::EndGame => Some(game.stopped(&r.forfeited)),
        _ => game.outcome(),
    };
    let forfeited: &[u8] = resignation.as_ref().map_or(&[], |r| &r.forfeited);
    let result = result.map(|outcome| {
        let mut result = GameResult::from(outcome);
        result.winners.retain(|w| !forfeited.contains(w));
        result
    });
    Ok(GameRecord {
        kind: info.kind,
        config: game.config_json(),
        players: info.players.clone(),
        created: info.created.clone(),
        ended: info.ended.clone(),
        commitment: commitment(&info.server_seed),
        seed: info.server_seed,
        entropy: info.entropy.clone(),
        dealing_seed: dealing,
        resignation,
        hints: info.hints.clone(),
        rounds: builder.rounds,
        result,
    })
}

/// The resignation `info` names, made with the game as it is (after its
/// `after_moves` moves): the seat must exist and the game must run; under
/// `end_game` nothing may follow it. The seats it forfeits are derived.
fn resigned_now<E: Engine>(
    info: &GameInfo,
    game: &E,
    total_moves: usize,
) -> Result<Option<Resignation>, BuildError> {
    let Some(r) = info.resigned else {
        return Ok(None);
    };
    if r.seat >= game.players() {
        return Err(BuildError::Resignation(format!("no seat {}", r.seat)));
    }
    if game.outcome().is_some() {
        return Err(BuildError::Resignation(
            "the game was already over".to_owned(),
        ));
    }
    let forfeited = match r.policy {
        ResignPolicy::Bot => vec![r.seat],
        ResignPolicy::EndGame if r.after_moves != total_moves => {
            return Err(BuildError::Resignation(
                "moves follow a resignation that ended the game".to_owned(),
            ));
        }
        ResignPolicy::EndGame => {
            let mut side = game.side(r.seat);
            side.sort_unstable();
            side
        }
    };
    Ok(Some(Resignation {
        seat: r.seat,
        after_moves: r.after_moves,
        policy: r.policy,
        forfeited,
    }))
}

/// Every hint names a seat of the game and a place within its moves; what
/// it suggested is not a move of the game and is not replayed.
fn check_hints(info: &GameInfo, players: u8, total_moves: usize) -> Result<(), BuildError> {
    for hint in &info.hints {
        if hint.seat >= players {
            return Err(BuildError::Hint(format!("no seat {}", hint.seat)));
        }
        if hint.ply > total_moves {
            return Err(BuildError::Hint(format!(
                "it is placed after {} moves, more than the record's {total_moves}",
                hint.ply
            )));
        }
    }
    Ok(())
}

fn check_seat_lists(info: &GameInfo, players: u8) -> Result<(), BuildError> {
    if info.players.len() != usize::from(players) {
        return Err(BuildError::PlayerNames {
            expected: players,
            given: info.players.len(),
        });
    }
    if info.entropy.len() != usize::from(players) {
        return Err(BuildError::EntropyCount {
            expected: players,
            given: info.entropy.len(),
        });
    }
    Ok(())
}

fn illegal(index: usize, seat: u8, refusal: Refusal) -> BuildError {
    BuildError::IllegalMove {
        index,
        seat,
        code: refusal.code,
        rule: refusal.rule,
        message: refusal.message,
    }
}

fn round_start<E: Engine>(game: &E) -> RoundRecord {
    let (hands, kitty) = game.hands();
    RoundRecord {
        number: game.round_number(),
        dealer: game.dealer(),
        pass: game.pass_direction(),
        hands,
        kitty,
        events: Vec::new(),
        score: None,
    }
}

/// Sorts accepted moves into rounds and tricks, watching the engine's
/// public state after each one.
struct Builder {
    rounds: Vec<RoundRecord>,
    /// Cards on the table in the current trick.
    trick: Vec<Play>,
    /// Score-sheet rows already written.
    scored: usize,
}

impl Builder {
    fn record<E: Engine>(&mut self, kind: GameKind, game: &E, mv: &RecordedMove) {
        match kind.played_card(&mv.mv) {
            Some(card) => {
                self.trick.push(Play {
                    seat: mv.seat,
                    card,
                    actor: mv.actor,
                });
                if game.table_empty() {
                    self.finish_trick(game);
                }
            }
            None => self.current().events.push(Event::Move(mv.clone())),
        }
        let sheet = game.score_sheet();
        if let Some(row) = sheet.get(self.scored) {
            self.current().score = Some(row.clone());
            self.scored += 1;
        }
        if !game.table_empty() || game.outcome().is_some() {
            return;
        }
        if game.round_number() != self.current().number {
            self.rounds.push(round_start(game));
        }
    }

    fn finish_trick<E: Engine>(&mut self, game: &E) {
        let plays = std::mem::take(&mut self.trick);
        let last_winner = self.current().tricks().filter_map(|t| t.winner).last();
        let cards: Vec<(u8, &str)> = plays.iter().map(|p| (p.seat, p.card.as_str())).collect();
        let end = game.trick_end(&cards, last_winner);
        let number = self.current().tricks().count() as u32 + 1;
        let (winner, set_aside) = match end {
            TrickEnd::Won(seat) => (Some(seat), false),
            TrickEnd::SetAside => (None, true),
        };
        self.current().events.push(Event::Trick(TrickRecord {
            number,
            plays,
            winner,
            set_aside,
        }));
    }

    /// A game stopped mid-trick keeps its cards on the table as an
    /// unfinished trick (no winner).
    fn close_unfinished_trick(&mut self) {
        if self.trick.is_empty() {
            return;
        }
        let plays = std::mem::take(&mut self.trick);
        let number = self.current().tricks().count() as u32 + 1;
        self.current().events.push(Event::Trick(TrickRecord {
            number,
            plays,
            winner: None,
            set_aside: false,
        }));
    }

    fn current(&mut self) -> &mut RoundRecord {
        self.rounds.last_mut().expect("a game has a first round")
    }
}

impl RoundRecord {
    /// The round's tricks in order.
    pub fn tricks(&self) -> impl Iterator<Item = &TrickRecord> {
        self.events.iter().filter_map(|e| match e {
            Event::Trick(t) => Some(t),
            Event::Move(_) => None,
        })
    }
}
