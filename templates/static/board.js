// Tapping a post's number puts its anchor (>>N) into the write form, where the cursor is.
// Without JavaScript the number is a link that opens the form with the anchor filled in.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.num[data-anchor]");
  const text = document.getElementById("text");
  if (!link || !text) return;
  event.preventDefault();
  const anchor = link.dataset.anchor + " ";
  const at = text.selectionStart ?? text.value.length;
  const before = text.value.slice(0, at);
  const gap = before && !/\s$/.test(before) ? " " : "";
  text.value = before + gap + anchor + text.value.slice(text.selectionEnd ?? at);
  const board = document.getElementById("board");
  const wanted = new URLSearchParams(link.search).get("board");
  if (board && wanted && [...board.options].some((o) => o.value === wanted)) board.value = wanted;
  text.focus();
  const end = (before + gap + anchor).length;
  text.setSelectionRange(end, end);
  document.getElementById("write")?.scrollIntoView({ block: "start" });
});
