// A 4-player trick-taking game for boardgame.io 0.50: 52 cards dealt 13
// each, a card per turn, follow the led suit when you can, the highest card
// of the led suit takes the trick and leads the next; 13 tricks, a point per
// trick. Each player sees only their own hand (playerView), as the api's
// players do. Shared by the server and the load client.
const { INVALID_MOVE } = require('boardgame.io/core');

const SUITS = 'CDHS';
const RANKS = '23456789TJQKA';
const PLAYERS = 4;
const TRICKS = 13;

const suit = (card) => card[1];
const rank = (card) => RANKS.indexOf(card[0]);

/** The cards of `hand` that may be played on `trick` (follow suit). */
function legalCards(hand, trick) {
  if (trick.length === 0) return hand;
  const led = suit(trick[0].card);
  const following = hand.filter((c) => suit(c) === led);
  return following.length > 0 ? following : hand;
}

/** The seat that takes `trick`: the highest card of the led suit. */
function trickWinner(trick) {
  const led = suit(trick[0].card);
  let best = trick[0];
  for (const play of trick.slice(1)) {
    if (suit(play.card) === led && rank(play.card) > rank(best.card)) best = play;
  }
  return best.seat;
}

function setup({ random }) {
  const deck = [];
  for (const s of SUITS) for (const r of RANKS) deck.push(r + s);
  const shuffled = random.Shuffle(deck);
  const hands = {};
  for (let p = 0; p < PLAYERS; p++) hands[p] = shuffled.slice(p * TRICKS, (p + 1) * TRICKS);
  return { hands, trick: [], next: 0, tricks: 0, score: [0, 0, 0, 0] };
}

function play({ G, playerID }, card) {
  const hand = G.hands[playerID];
  if (!hand || !legalCards(hand, G.trick).includes(card)) return INVALID_MOVE;
  G.hands[playerID] = hand.filter((c) => c !== card);
  G.trick.push({ seat: Number(playerID), card });
  if (G.trick.length < PLAYERS) {
    G.next = (Number(playerID) + 1) % PLAYERS;
    return;
  }
  const winner = trickWinner(G.trick);
  G.score[winner] += 1;
  G.tricks += 1;
  G.trick = [];
  G.next = winner;
}

const TrickGame = {
  name: 'tricks',
  minPlayers: PLAYERS,
  maxPlayers: PLAYERS,
  setup,
  // Applied by the server only (no optimistic update on the client), so a
  // client's state changes when the server has taken the move: the
  // acknowledgement the load client times.
  moves: { play: { move: play, client: false } },
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: { first: ({ G }) => G.next, next: ({ G }) => G.next },
  },
  playerView: ({ G, playerID }) => ({
    ...G,
    hands: { [playerID]: G.hands[playerID] || [] },
  }),
  endIf: ({ G }) => (G.tricks === TRICKS ? { score: G.score } : undefined),
};

module.exports = { TrickGame, legalCards, trickWinner };
