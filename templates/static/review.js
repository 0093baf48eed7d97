// The review (感想戦): ← and → (and a horizontal swipe) follow the page's own 前/次 links.
// Without JavaScript the links do the same.
const follow = (id) => {
  const link = document.getElementById(id);
  if (link) window.location.assign(link.href);
};
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") follow("review-prev");
  if (event.key === "ArrowRight") follow("review-next");
});
let start = null;
document.addEventListener("touchstart", (event) => {
  start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
}, { passive: true });
document.addEventListener("touchend", (event) => {
  if (!start || event.target.closest(".duel-board, form")) return;
  const dx = event.changedTouches[0].clientX - start.x;
  const dy = event.changedTouches[0].clientY - start.y;
  start = null;
  if (Math.abs(dx) > 80 && Math.abs(dx) > 2 * Math.abs(dy)) follow(dx < 0 ? "review-next" : "review-prev");
}, { passive: true });
