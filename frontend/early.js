// A classic script, inline in the shell before anything else (backend/web/views.py; the Content-Security-Policy
// names it by its hash). On a match page it starts, while the modules load, the two things the table waits
// for: the match record (it names the game; js/screens/match.js takes the answer) and the match socket, whose
// first frames it holds until js/live.js adopts it. The socket's address is made here only, for both.
(function () {
  // Difference frames (docs/api.md): js/match/patch.js turns them back into whole states.
  window.__matchSocketPath = function (id) { return "/ws/matches/" + id + "/?frames=patch"; };
  // Once the page is parsed, while its modules are still on their way (a round trip at least), the page has
  // nothing to do: the first number or list formatted loads the language's formatting data (a tenth of a second
  // on a slow phone), so it is loaded then rather than while the first table draws (js/i18n.js keeps the
  // formatters themselves).
  var warm = function () {
    document.removeEventListener("readystatechange", warm);
    setTimeout(function () {
      try {
        var lang = document.documentElement.lang;
        new Intl.NumberFormat(lang).format(1);
        if (Intl.ListFormat) new Intl.ListFormat(lang, { type: "conjunction" }).format(["a", "b"]);
      } catch (e) { /* an old browser: the app formats without it */ }
    }, 0);
  };
  document.addEventListener("readystatechange", warm);
  var m = /^\/match\/(\d+)\/?$/.exec(location.pathname);
  if (!m) return;
  window.__earlyMatch = { id: m[1], answer: fetch("/api/matches/" + m[1] + "/", { headers: { Accept: "application/json" }, credentials: "same-origin" }) };
  if (!window.WebSocket) return;
  var url = (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + window.__matchSocketPath(m[1]);
  var ws = new WebSocket(url), held = [];
  ws.onmessage = function (e) { held.push(e); };
  window.__earlySocket = { url: url, ws: ws, held: held };
})();
