// boardgame.io's own server (Koa lobby API + socket.io), in memory, with
// the trick game: `node server.js PORT`.
const { Server } = require('boardgame.io/server');
const { TrickGame } = require('./game');

const port = Number(process.argv[2] || 8000);
const server = Server({ games: [TrickGame] });
server.run(port, () => console.log(`boardgame.io server on :${port}`));
