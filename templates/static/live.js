// The live game page: asks "anything new since move N?" (one small JSON answer) and reloads
// when the other side has moved or the game has ended. Every 2 s while waiting for the other
// side, every 15 s on your own move (a second tab, a fallen flag), every 10 s on your own
// move in a live game between people (the asking says you are here). Counts the running clock
// down between answers. A chat message from the other player is shown where the chat is, read
// from the page fetched anew (a reload would lose a move half filled in), and announced above
// the board. Without JavaScript the page refreshes itself while waiting.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || live.dataset.ended === "1") return;
  var url = live.dataset.poll;
  var every = Number(live.dataset.every) || 15000;
  function ask() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (answer && answer.new) { window.location.reload(); return; }
        if (answer && answer.chats > Number(live.dataset.chats)) { showChats(answer.chats); }
        window.setTimeout(ask, every);
      })
      .catch(function () { window.setTimeout(ask, every * 2); });
  }
  function showChats(count) {
    live.dataset.chats = count;  // asked once per new message, however the fetch goes
    fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (page) {
        if (!page) { live.dataset.chats = 0; return; }  // the next answer tries again
        var shown = document.getElementById("chat-log");
        var fresh = new DOMParser().parseFromString(page, "text/html").getElementById("chat-log");
        if (!shown || !fresh) return;
        shown.replaceWith(document.importNode(fresh, true));
        var told = document.getElementById("chat-new");
        if (told) { told.hidden = false; }
      })
      .catch(function () { live.dataset.chats = 0; });  // the next answer tries again
  }
  window.setTimeout(ask, every);
  var held = document.getElementById("hold");  // a ranked game's hold: gone when it ends
  if (held) { window.setTimeout(function () { held.hidden = true; }, Number(held.dataset.left) * 1000); }
  var running = document.querySelector(".clock.running");
  if (running) {
    var bank = Number(running.dataset.bank), byoyomi = Number(running.dataset.byoyomi);
    var hold = Number(running.dataset.hold || 0);  // a ranked game's held answer: not yet running
    var label = running.textContent.split(" ")[0];
    window.setInterval(function () {
      if (hold > 0) { hold -= 1; return; }
      if (bank > 0) { bank -= 1; } else if (byoyomi > 0) { byoyomi -= 1; }
      running.textContent = label + " 持ち時間 " + Math.floor(bank / 60) + "分" + (bank % 60) + "秒" +
        (bank <= 0 ? "・秒読み " + byoyomi + "秒" : "");
    }, 1000);
  }
})();
