// The rules of each game for players (`#/rules/lost-heir`,
// `#/rules/cancellation-hearts`): what the engines do (docs/rules/*.md), in
// plain words, with pictures of the cards; the ruling ids only as small
// print, for whoever wants to look one up.
import { clear, h, type Children } from "./dom";
import { chip } from "./faces";

const ids = (text: string) => h("span", { class: "rule-ids", title: "the ruling behind this (docs/rules)" }, text);
const section = (title: string, ...body: Children[]) => h("section", { class: "rules-section" }, h("h2", {}, title), body);
const p = (...body: Children[]) => h("p", {}, body);
/** Card pictures; a code ending in "!" is shown cancelled. */
const cards = (...codes: string[]) => h("div", { class: "rules-cards" }, codes.map((c) => (c.endsWith("!") ? chip(c.slice(0, -1), "cancelled") : chip(c))));

function lostHeir(): Children[] {
  return [
    h("h1", {}, "Lost Heir: how to play"),
    p("A trick-taking game for 2 to 4 players. Bid for the points your side will take, choose the trump city, and chase the Lost Heir while you dodge the Wrong Boy."),
    section("The cards",
      p("Four cities, each a suit: Toronto, Winnipeg, Halifax and Montreal. Each city has seven officers, from high to low: Mayor, Chief of Police, Commissioner, Detective, Captain, Sergeant and Policeman. ", ids("LH-1")),
      cards("toronto-mayor", "winnipeg-chief", "halifax-captain", "montreal-policeman"),
      p("Three special cards: the Lost Heir, the Wrong Boy and the Blank (two of them, left out with 3 players)."),
      cards("heir", "wrong-boy", "blank")),
    section("Players, sides and the deal",
      p("Every card is dealt: 16 each with 2 players, 10 each with 3, 8 each with 4. ", ids("LH-2")),
      p("With 4 players you usually play in pairs, partners sitting opposite each other and sharing one score. A side is a player on their own, or a pair. ", ids("LH-3")),
      p("The dealer changes every round, moving to the left. ", ids("LH-4"))),
    section("Bidding",
      p("Everyone but the dealer speaks once, starting on the dealer's left: either bid a number of points (more than the highest bid so far) or pass. A side can take at most the number of tricks plus 5 points in a round, so bids go up to 21 with 2 players, 15 with 3 and 13 with 4. ", ids("LH-5")),
      p("Then the dealer decides: ", ids("LH-6")),
      h("ul", {},
        h("li", {}, h("strong", {}, "Accept: "), "the highest bidder names trumps, and the dealer's side must now take at least that many points, or it scores nothing positive this round."),
        h("li", {}, h("strong", {}, "Reject: "), "the dealer names trumps, and the dealer's side scores nothing positive this round."),
        h("li", {}, h("strong", {}, "Everyone passed: "), "the dealer names trumps and there is no contract.")),
      p("A table can choose the bidder's contract instead: when the dealer accepts, it is the bidder's side that must make the bid. ", ids("LH-13"))),
    section("Trumps",
      p("The trump city beats every other city. The Lost Heir and the Wrong Boy belong to it: the Lost Heir is the highest card of all, then the trump Mayor down to the Policeman, then the Wrong Boy, the lowest trump but still above any card that is not a trump. ", ids("LH-7")),
      p("With Halifax trumps, from high to low:"),
      cards("heir", "halifax-mayor", "halifax-chief", "halifax-policeman", "wrong-boy")),
    section("Playing a trick",
      h("ul", {},
        h("li", {}, "The player on the dealer's left leads the first trick; whoever takes a trick leads the next. ", ids("LH-8")),
        h("li", {}, "Lead any card but a Blank (unless Blanks are all you have)."),
        h("li", {}, "Follow the city that was led if you can. When trumps are led, any trump follows, the Lost Heir and the Wrong Boy included: if you hold one, you must play one. ", ids("LH-9")),
        h("li", {}, "If you cannot follow, play anything: a trump, another city, or a Blank. A Blank may only be played then."),
        h("li", {}, "The highest trump takes the trick; without a trump, the highest card of the city led. A Blank never wins. ", ids("LH-10")))),
    section("Scoring",
      h("ul", {},
        h("li", {}, "1 point for every trick your side takes."),
        h("li", {}, "+5 for taking the Lost Heir, −3 for taking the Wrong Boy; but neither counts when a Blank was played to the same trick. ", ids("LH-11")),
        h("li", {}, "A side that scores nothing this round (after a failed contract, or a rejected bid) keeps its negative points but none of its positive ones."))),
    section("Winning",
      p("After a round, if any side has reached the target (40 points, or 25 for pairs, unless the table chose another), the side with the highest total wins. If the highest total is shared, play another round. ", ids("LH-12"))),
    section("At this table",
      p("The cards you may play stand out in your hand; any other card says why it cannot be played when you tap it (or focus it with the arrow keys; Enter plays). The last trick can be looked at at any time, and every trick of the round is listed under the table.")),
  ];
}

function cancellationHearts(): Children[] {
  return [
    h("h1", {}, "Cancellation Hearts: how to play"),
    p("Hearts for 6 to 10 players with two decks shuffled together, so every card is there twice, and two identical cards in a trick cancel each other out. Take as few hearts, and as few queens of spades, as you can."),
    section("The cards and the deal",
      p("Two ordinary decks: 104 cards. Aces are high and there are no trumps. Everyone gets the same number of cards; the few left over form the kitty, face down. ", ids("CH-1")),
      h("table", { class: "rules-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Players"), h("th", { scope: "col" }, "Cards each"), h("th", { scope: "col" }, "Kitty"))),
        h("tbody", {}, [[6, 17, 2], [7, 14, 6], [8, 13, 0], [9, 11, 5], [10, 10, 4]].map(([n, each, kitty]) =>
          h("tr", {}, h("td", {}, String(n)), h("td", {}, String(each)), h("td", {}, String(kitty))))))),
    section("What counts",
      p("Every heart you take is 1 point, every queen of spades 13: 52 points in each round. Points are bad. ", ids("CH-11")),
      cards("2H", "AH", "QS")),
    section("Passing",
      p("Before each round everyone passes three cards at the same time: to the left in the first round, to the right in the second, across the table in the third, and not at all in the fourth; then again from the left. You see what you received once everyone has passed. ", ids("CH-3"))),
    section("Playing a trick",
      h("ul", {},
        h("li", {}, "The two of clubs leads the first trick. If two players hold one, the first of them clockwise from the dealer's left leads; if both are in the kitty, the lowest club leads. ", ids("CH-4")),
        h("li", {}, "Follow the suit led if you can; otherwise play anything, except that on the first trick of a round you may not throw a heart or the queen of spades unless that is all you hold. ", ids("CH-5")),
        h("li", {}, "Hearts cannot be led until a heart or the queen of spades has been played in the round (unless you hold only hearts). The queen of spades can be led at any time. ", ids("CH-6")),
        h("li", {}, "Whoever takes a trick leads the next."))),
    section("Cancelling",
      p("Two identical cards in the same trick cancel: neither can win it, though both still count for whoever takes it. The trick goes to the highest card of the suit led that was not cancelled. ", ids("CH-7")),
      cards("9D!", "9D!", "4D", "JD"),
      p("Diamonds were led: the two nines cancel, so the jack of diamonds takes the trick."),
      p("When every card of the suit led is cancelled, nobody has won yet, and the table's choice decides:"),
      h("ul", {},
        h("li", {}, h("strong", {}, "Go round again (the usual way): "), "starting with the leader, everyone plays one more card to the same trick, following the suit first led if they can, until a card stands. If the hands run out first, the leader takes it. ", ids("CH-8")),
        h("li", {}, h("strong", {}, "Set it aside: "), "the cards wait face up in the middle, and whoever takes the next trick takes them too. ", ids("CH-9")))),
    section("The kitty",
      p("Whoever takes the first trick picks up the kitty and, before leading, puts the same number of cards face down. Those cards count for them at the end of the round; only they see them. With 8 players there is no kitty. ", ids("CH-10"))),
    section("Shooting the moon",
      p("Take every heart and both queens of spades in one round and you score nothing for them; instead you choose: take 26 off your own score, or add 26 to everyone else's. ", ids("CH-12"))),
    section("Winning",
      p("When, after a round, someone has reached the target (100 points unless the table chose another), the game ends: the lowest score wins, and players tied for it share the win. ", ids("CH-13"))),
    section("At this table",
      p("The cards you may play stand out in your hand; any other card says why when you tap it (or reach it with the arrow keys; Enter plays). Cancelled cards are marked on the table as they cancel, the kitty lies in the middle until it is taken, and the last trick can be looked at at any time.")),
  ];
}

export function rulesPage(main: HTMLElement, kind: string): () => void {
  const body = kind === "lost-heir" ? lostHeir() : cancellationHearts();
  const other = kind === "lost-heir" ? ["cancellation-hearts", "Cancellation Hearts"] : ["lost-heir", "Lost Heir"];
  clear(main, h("article", { class: "card-panel rules-page", id: "rules", "data-kind": kind }, body,
    h("p", { class: "muted" }, h("a", { href: "#/" }, "Play now"), " · ", h("a", { href: `#/rules/${other[0]}` }, `The rules of ${other[1]}`),
      " · The rulings, for the curious: docs/rules in the source.")));
  return () => {};
}
