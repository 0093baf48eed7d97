// A link to pass on (the shared record's): the phone's share sheet where there is one, else a
// copy to the clipboard. Without JavaScript the button stays hidden and the link stays in its
// field, to select and copy by hand.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.dataset.copy);
    var said = document.getElementById(button.dataset.copy + "-said");
    if (!field) return;
    field.addEventListener("focus", function () { field.select(); });
    var sharing = typeof navigator.share === "function";
    if (!sharing && !(navigator.clipboard && navigator.clipboard.writeText)) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      if (sharing) {
        navigator.share({ title: document.title, url: field.value }).catch(function () {});
        return;
      }
      navigator.clipboard.writeText(field.value).then(
        function () { if (said) said.textContent = "リンクをコピーしました。"; },
        function () {
          field.focus();
          if (said) said.textContent = "コピーできませんでした。リンクを選んでコピーしてください。";
        }
      );
    });
  });
})();
