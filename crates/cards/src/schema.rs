//! OpenAPI schemas for the types that serialize by hand (behind the
//! `utoipa` feature): card codes, seats and seat sets. Hands and card sets
//! serialize as arrays of codes: the engines' fields say so with
//! `value_type = Vec<Card>`.
//!
//! The card enums are built from the decks themselves (every index of the
//! deck, in index order, written as it serializes), so the document cannot
//! list a code the server never sends or miss one it does.

use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::heir::{City, HeirCard};
use crate::standard::Card;
use crate::{CardKind, Seat, SeatSet, Seed};

/// A string enum of every card of a deck, each described by its name (the
/// `x-enum-descriptions` list is in the same order as `enum`).
fn card_enum<C: CardKind>(description: &str, name: impl Fn(C) -> String) -> RefOr<Schema> {
    let cards: Vec<C> = (0..C::KINDS).filter_map(C::from_index).collect();
    let names: Vec<String> = cards.iter().map(|&card| name(card)).collect();
    let table: Vec<String> = cards
        .iter()
        .zip(&names)
        .map(|(card, name)| format!("`{card}` {name}"))
        .collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(cards.iter().map(ToString::to_string)))
        .description(Some(format!("{description}\n\n{}.", table.join("; "))))
        .extensions(Some(
            ExtensionsBuilder::new()
                .add("x-enum-descriptions", names)
                .build(),
        ))
        .into()
}

impl PartialSchema for HeirCard {
    fn schema() -> RefOr<Schema> {
        card_enum::<HeirCard>(
            "A card of the Lost Heir deck (LH-1): `{city}-{rank}` for the 28 city cards, \
             then the Lost Heir, the Wrong Boy and the Blank (two copies in a 2- or 4-player \
             deck, LH-2).",
            HeirCard::name,
        )
    }
}
impl ToSchema for HeirCard {}

impl PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        card_enum::<Card>(
            "A card of a standard deck: rank (`2`…`10`, `J`, `Q`, `K`, `A`) then suit \
             (`C`, `D`, `H`, `S`). Cancellation Hearts plays two decks, so a hand may hold \
             two copies of a code.",
            |card| format!("{} of {}", card.rank.name(), card.suit.name()),
        )
    }
}
impl ToSchema for Card {
    fn name() -> std::borrow::Cow<'static, str> {
        "StandardCard".into()
    }
}

impl PartialSchema for City {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(City::ALL.map(City::code)))
            .description(Some(
                "A Lost Heir suit, named for a city (LH-1); one of them is trumps each round (LH-7).",
            ))
            .extensions(Some(
                ExtensionsBuilder::new()
                    .add("x-enum-descriptions", City::ALL.map(City::name))
                    .build(),
            ))
            .into()
    }
}
impl ToSchema for City {}

impl PartialSchema for Seat {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(crate::seat::MAX_SEATS - 1))
            .description(Some(
                "A seat number, 0 for the first seat, counting to the left.",
            ))
            .into()
    }
}
impl ToSchema for Seat {}

impl PartialSchema for SeatSet {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(Ref::from_schema_name(Seat::name()))
            .unique_items(true)
            .description(Some("Seats, in ascending order."))
            .into()
    }
}
impl ToSchema for SeatSet {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Seat::name().into(), Seat::schema()));
    }
}

impl PartialSchema for Seed {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some("^[0-9a-f]{64}$"))
            .description(Some("32 seed bytes as 64 lowercase hexadecimal digits."))
            .into()
    }
}
impl ToSchema for Seed {}
