/* Lockstep embeds: fits each Lockstep <iframe> on this page to its content.
 *
 *   <iframe src="https://…/#/embed/queue-wait-or-skip?readpast=off" height="640" …></iframe>
 *   <script src="https://…/embed.js" defer></script>
 *
 * A widget posts {type: "lockstep:height", height} when it is shown and whenever its
 * content changes size; this script sets the height of the iframe that sent it (found
 * by comparing event.source with each iframe's contentWindow, so no other frame or page
 * can resize it). Without this script an iframe keeps its height attribute and scrolls.
 * Plain JavaScript, no dependencies, nothing loaded from anywhere. */
(function () {
  'use strict';
  var MIN = 120;
  var MAX = 20000;

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'lockstep:height') return;
    var height = Number(data.height);
    if (!isFinite(height) || height <= 0) return;
    var frames = document.querySelectorAll('iframe[src*="#/embed/"]');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      var px = Math.min(MAX, Math.max(MIN, Math.ceil(height))) + 'px';
      if (frame.style.height !== px) frame.style.height = px;
      frame.setAttribute('data-lockstep-resized', 'true');
      return;
    }
  });
})();
