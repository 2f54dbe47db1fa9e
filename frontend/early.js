// A classic script loaded before the stylesheets, which would hold it back (and a file, not inline, for the
// Content-Security-Policy). A match page asks for the match record while the modules load: it names the game, so
// that game's table can be fetched as soon as the app starts (js/screens/match.js takes the answer).
(function () {
  var m = /^\/match\/(\d+)\/?$/.exec(location.pathname);
  if (m) window.__earlyMatch = { id: m[1], answer: fetch("/api/matches/" + m[1] + "/", { headers: { Accept: "application/json" }, credentials: "same-origin" }) };
})();
