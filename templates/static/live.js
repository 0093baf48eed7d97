// The live game page: asks "anything new since move N?" (one small JSON answer) and reloads
// when the other side has moved or the game has ended. Every 2 s while waiting for the other
// side, every 15 s on your own move (a second tab, a fallen flag), every 10 s on your own
// move in a live game between people (the asking says you are here). Counts the running clock
// down between answers. A chat message from the other player only shows a link to it (a
// reload would lose a move half filled in). Without JavaScript the page refreshes itself
// while waiting.
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
        var told = document.getElementById("chat-new");
        if (answer && told && answer.chats > Number(live.dataset.chats)) { told.hidden = false; }
        window.setTimeout(ask, every);
      })
      .catch(function () { window.setTimeout(ask, every * 2); });
  }
  window.setTimeout(ask, every);
  var told = document.getElementById("chat-new");
  if (told) {  // the same address with #chat would only scroll: load the page again
    told.querySelector("a").addEventListener("click", function (event) {
      event.preventDefault();
      window.location.hash = "chat";
      window.location.reload();
    });
  }
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
