#!/usr/bin/env python3
"""Checks the shuffle of a game record without trusting the server or our code.

    python3 docs/check_shuffle.py RECORD.txt

Recomputes, from the record's header tags, (1) the commitment SHA-256(Seed),
(2) the dealing seed from Seed and every Entropy tag, and (3) every round's
deal from the dealing seed, and compares them with the record. The
construction is specified in docs/fairness.md. Only the Python standard
library is used. The legality of the moves is a matter of the rules, checked
by `cardgames-record verify`.
"""

import hashlib
import json
import re
import struct
import sys

def chacha8_words(key: bytes):
    """ChaCha with 8 rounds, 32-byte key, 64-bit block counter from 0, nonce 0:
    yields the keystream as little-endian 32-bit words, block after block."""
    const = struct.unpack("<4I", b"expand 32-byte k")
    k = struct.unpack("<8I", key)
    counter = 0
    M = 0xFFFFFFFF
    def rotl(x, n): return ((x << n) & M) | (x >> (32 - n))
    def qr(s, a, b, c, d):
        s[a] = (s[a] + s[b]) & M; s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & M; s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & M; s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & M; s[b] = rotl(s[b] ^ s[c], 7)
    while True:
        init = list(const) + list(k) + [counter & M, counter >> 32, 0, 0]
        s = init[:]
        for _ in range(4):  # 8 rounds = 4 double rounds
            qr(s, 0, 4, 8, 12); qr(s, 1, 5, 9, 13); qr(s, 2, 6, 10, 14); qr(s, 3, 7, 11, 15)
            qr(s, 0, 5, 10, 15); qr(s, 1, 6, 11, 12); qr(s, 2, 7, 8, 13); qr(s, 3, 4, 9, 14)
        for i in range(16):
            yield (s[i] + init[i]) & M
        counter += 1

def random_below(words, n):
    """Lemire's multiply-shift with rejection: uniform in 0..n."""
    threshold = (2**32 - n) % n
    while True:
        product = next(words) * n
        if (product & 0xFFFFFFFF) >= threshold:
            return product >> 32

def shuffle(deck, words):
    """Fisher-Yates from the last position down."""
    for i in range(len(deck) - 1, 0, -1):
        j = random_below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]

CITIES = ["toronto", "winnipeg", "halifax", "montreal"]
RANKS = ["policeman", "sergeant", "captain", "detective", "commissioner", "chief", "mayor"]
def lost_heir_deck(players):
    deck = [f"{c}-{r}" for c in CITIES for r in RANKS] + ["heir", "wrong-boy"]
    return deck if players == 3 else deck + ["blank", "blank"]

SUITS = "CDHS"
RANKS52 = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
def hearts_deck():
    return [r + s for s in SUITS for r in RANKS52 for _copy in range(2)]

def deals(kind, players, dealing_seed_hex, rounds):
    words = chacha8_words(bytes.fromhex(dealing_seed_hex))
    dealer = random_below(words, players)
    for number in range(1, rounds + 1):
        deck = lost_heir_deck(players) if kind == "lost-heir" else hearts_deck()
        order = {card: i for i, card in enumerate(deck)}
        shuffle(deck, words)
        per_hand = len(deck) // players
        hands = [[] for _ in range(players)]
        for i, card in enumerate(deck[: per_hand * players]):
            hands[(dealer + 1 + i % players) % players].append(card)
        lines = [f"round {number} dealer {dealer}"]
        for seat, hand in enumerate(hands):
            lines.append(f"deal {seat}:" + "".join(" " + c for c in sorted(hand, key=order.get)))
        if kind != "lost-heir":
            kitty = sorted(deck[per_hand * players:], key=order.get)
            lines.append("kitty:" + "".join(" " + c for c in kitty))
        yield lines
        dealer = (dealer + 1) % players


def field(data: bytes) -> bytes:
    """A length-prefixed field: 4-byte big-endian length, then the bytes."""
    return struct.pack(">I", len(data)) + data


def dealing_seed(server_seed: bytes, entropy_by_seat) -> bytes:
    message = field(b"cardgames dealing seed v1") + field(server_seed)
    message += struct.pack(">I", len(entropy_by_seat))
    for entropy in entropy_by_seat:
        message += b"\x00" if entropy is None else b"\x01" + field(entropy.encode("utf-8"))
    return hashlib.sha256(message).digest()


def unquote(value: str) -> str:
    escapes = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
    return re.sub(
        r"\\(u\{([0-9a-f]+)\}|.)",
        lambda m: chr(int(m.group(2), 16)) if m.group(2) else escapes[m.group(1)],
        value,
    )


def main(path: str) -> int:
    lines = open(path, encoding="utf-8").read().splitlines()
    tags = {}
    for line in lines:
        m = re.fullmatch(r'\[(\w+) "(.*)"\]\s*', line)
        if m:
            tags[m.group(1)] = unquote(m.group(2))
    kind = tags["Kind"]
    players = json.loads(tags["Config"])["players"]
    server_seed = bytes.fromhex(tags["Seed"])
    problems = []

    commitment = hashlib.sha256(server_seed).hexdigest()
    if commitment != tags["Commitment"]:
        problems.append(f"commitment {tags['Commitment']} is not SHA-256 of the seed ({commitment})")

    entropy = [tags.get(f"Entropy{seat}") for seat in range(players)]
    seed = dealing_seed(server_seed, entropy).hex()
    if seed != tags["DealingSeed"]:
        problems.append(f"the dealing seed is {seed}, the record says {tags['DealingSeed']}")

    written = [l.rstrip() for l in lines if re.match(r"(round |deal |kitty:)", l)]
    rounds = sum(1 for l in written if l.startswith("round "))
    expected = [l for lines_ in deals(kind, players, seed, rounds) for l in lines_]
    for want, found in zip(expected, (re.sub(r" pass \w+$", "", l) for l in written)):
        if want != found:
            problems.append(f"deal mismatch: the seed gives `{want}`, the record says `{found}`")
    if len(written) != len(expected):
        problems.append("the record has a different number of deal lines")

    for problem in problems:
        print(problem)
    if not problems:
        print(f"ok: commitment, dealing seed and {rounds} deal(s) match the seed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
