// The tricks of a round, rebuilt from the log's plays (every card is played
// face up, G-2): the view holds only the trick on the table and the last
// one, so the list of the round's tricks and the round summary's "who took
// what" are put together here. Pure: no DOM, no requests.
//
// Which plays belong to the round comes from the view's own counts (cards
// taken and tricks won this round); how they fall into tricks and who takes
// each follows the rules (LH-8..LH-11; CH-5, CH-7..CH-9). The newest trick
// rebuilt is checked against the view's `last_trick`: on any difference the
// caller shows only what the view says.

export interface Play {
  seat: number;
  card: string;
  cancelled?: boolean;
}

export interface DoneTrick {
  /** 1 for the round's first trick (set-aside tricks count). */
  number: number;
  leader: number;
  plays: Play[];
  /** Who took it; null when set aside (CH-9). */
  winner: number | null;
  /** Lost Heir: what it scored for its taker (LH-11). */
  points?: number;
}

export type Rules =
  | { kind: "lost-heir"; players: number; trumps: string | null }
  | { kind: "cancellation-hearts"; players: number; extend: boolean };

/** Cards each player plays in a round: LH-2 (16, 10, 8), CH-1 (floor(104 / n); a kitty taker discards as many). */
export function cardsPerHand(kind: string, players: number): number {
  if (kind === "lost-heir") return players === 2 ? 16 : players === 3 ? 10 : 8;
  return Math.floor(104 / players);
}

// ---------------------------------------------------------------- Lost Heir

const HEIR_RANKS = ["mayor", "chief", "commissioner", "detective", "captain", "sergeant", "policeman"];

/** A card's suit for following: its city, "trumps" for the trump city and the Heir and the Boy, null for a Blank. */
function heirSuit(card: string, trumps: string | null): string | null {
  if (card === "blank") return null;
  if (card === "heir" || card === "wrong-boy") return "trumps";
  const city = card.split("-")[0] ?? "";
  return city === trumps ? "trumps" : city;
}

/** How strong a card is in a trick (LH-10): trumps above the suit followed, the rest never win. */
function heirStrength(card: string, follow: string | null, trumps: string | null): number {
  if (card === "blank") return -1;
  if (card === "heir") return 300;
  if (card === "wrong-boy") return 200;
  const suit = heirSuit(card, trumps);
  const rank = 7 - HEIR_RANKS.indexOf(card.split("-")[1] ?? "");
  if (suit === "trumps") return 200 + rank;
  return suit === follow ? 100 + rank : 0;
}

function lostHeirTrick(plays: Play[], trumps: string | null): { winner: number; points: number } {
  const follow = plays.map((p) => heirSuit(p.card, trumps)).find((s) => s !== null) ?? null;
  let best = plays[0]!;
  let strength = -2;
  for (const p of plays) {
    const s = heirStrength(p.card, follow, trumps);
    if (s > strength) { best = p; strength = s; }
  }
  // A trick of Blanks only goes to its leader (LH-10).
  const winner = strength < 0 ? plays[0]!.seat : best.seat;
  const cards = plays.map((p) => p.card);
  const blank = cards.includes("blank");
  const points = 1 + (!blank && cards.includes("heir") ? 5 : 0) + (!blank && cards.includes("wrong-boy") ? -3 : 0);
  return { winner, points };
}

// ---------------------------------------------------------------- Cancellation Hearts

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** The seat of the highest uncancelled card of the suit led (CH-7), if any. */
export function heartsWinner(plays: Play[]): number | null {
  const led = plays[0]?.card.slice(-1);
  const count = new Map<string, number>();
  for (const p of plays) count.set(p.card, (count.get(p.card) ?? 0) + 1);
  let best: Play | null = null;
  for (const p of plays) {
    if (p.card.slice(-1) !== led || (count.get(p.card) ?? 0) > 1) continue;
    if (!best || RANKS.indexOf(p.card.slice(0, -1)) > RANKS.indexOf(best.card.slice(0, -1))) best = p;
  }
  return best?.seat ?? null;
}

/** Marks each play cancelled when its twin is in the same trick (CH-7). */
export function markCancelled(plays: Play[]): Play[] {
  const count = new Map<string, number>();
  for (const p of plays) count.set(p.card, (count.get(p.card) ?? 0) + 1);
  return plays.map((p) => ({ ...p, cancelled: (count.get(p.card) ?? 0) > 1 }));
}

// ---------------------------------------------------------------- grouping

/**
 * A round's plays, in order, as tricks. `complete`: the round is over, so
 * its last trick ends with its last card (an extension that ran out goes to
 * its leader, CH-8; a last trick with no winner to its leader, CH-9).
 */
export function groupTricks(rules: Rules, plays: Play[], complete: boolean): DoneTrick[] {
  const n = rules.players;
  const out: DoneTrick[] = [];
  let i = 0;
  while (i + n <= plays.length) {
    if (rules.kind === "lost-heir") {
      const trick = plays.slice(i, i + n);
      const { winner, points } = lostHeirTrick(trick, rules.trumps);
      out.push({ number: out.length + 1, leader: trick[0]!.seat, plays: trick, winner, points });
      i += n;
      continue;
    }
    // Cancellation Hearts: circuits of n until a card of the suit led stands (CH-8), or set aside (CH-9).
    let end = i + n;
    let winner = heartsWinner(plays.slice(i, end));
    while (winner === null && rules.extend && end + n <= plays.length) {
      end += n;
      winner = heartsWinner(plays.slice(i, end));
    }
    const trick = markCancelled(plays.slice(i, end));
    const last = end === plays.length;
    if (winner === null && rules.extend && !(last && complete)) break; // an extension still being played
    if (winner === null && last && complete) winner = trick[0]!.seat;
    out.push({ number: out.length + 1, leader: trick[0]!.seat, plays: trick, winner });
    i = end;
  }
  return out;
}

/** Whether two tricks hold the same cards from the same seats in the same order. */
export function sameTrick(a: { plays: Play[] }, b: { plays: { seat: number; card: string }[] }): boolean {
  return a.plays.length === b.plays.length && a.plays.every((p, i) => p.seat === b.plays[i]!.seat && p.card === b.plays[i]!.card);
}

/**
 * The plays of the current round and of the one before it, from every play
 * seen so far (in log order, the newest last): the current round's are its
 * last `inRound`; the previous round's the `perRound` before them (null when
 * the log seen does not reach back that far).
 */
export function splitRounds(all: Play[], inRound: number, perRound: number): { current: Play[] | null; previous: Play[] | null } {
  if (all.length < inRound) return { current: null, previous: null };
  const current = all.slice(all.length - inRound);
  const start = all.length - inRound - perRound;
  return { current, previous: start >= 0 ? all.slice(start, all.length - inRound) : null };
}
