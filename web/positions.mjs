// Prints the seat (pos-K) and trick-spot (spot-K) rules at the end of
// src/style.css, one line per table size: `node positions.mjs`, then paste.
// Kept as classes because the page's CSP forbids style attributes.
// Seats on a rectangle's perimeter, equally spaced from the bottom centre,
// clockwise (screen: bottom, left, top, right); each trick spot a fixed
// distance in front of its seat, towards the centre (phone-sized felt).
const a = 36, b = 42, P = 4 * a + 4 * b, W = 370;
const out = [];
for (const n of [2, 3, 4, 6, 7, 8, 9, 10]) {
  const H = n >= 9 ? 464 : 384, D = n >= 9 ? 70 : 78;
  const row = [];
  for (let k = 0; k < n; k++) {
    let d = (k * P) / n, x, y;
    if (d <= a) { x = 50 - d; y = 50 + b; }
    else if ((d -= a) <= 2 * b) { x = 50 - a; y = 50 + b - d; }
    else if ((d -= 2 * b) <= 2 * a) { x = 50 - a + d; y = 50 - b; }
    else if ((d -= 2 * a) <= 2 * b) { x = 50 + a; y = 50 - b + d; }
    else { d -= 2 * b; x = 50 + a - d; y = 50 + b; }
    const px = (x / 100) * W, py = (y / 100) * H, dx = W / 2 - px, dy = H / 2 - py, len = Math.hypot(dx, dy);
    const sx = ((px + (dx / len) * D) / W) * 100, sy = ((py + (dy / len) * D) / H) * 100;
    const f = (v) => `${+v.toFixed(1)}%`;
    row.push(`.ring-${n} .pos-${k}{left:${f(x)};top:${f(y)}}`, `.ring-${n} .spot-${k}{left:${f(sx)};top:${f(sy)}}`);
  }
  out.push(row.join(""));
}
console.log(out.join("\n"));
