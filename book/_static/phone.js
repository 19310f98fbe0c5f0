// The book on a phone (book/_static/phone.css; book/_ext/coursebook/phone.py).
// 1. A formula wider than its box gets the class math-scrolls (a fading far edge and a thin
//    scrollbar) and a place in the tab order, and math-end once the reader has scrolled to its end. A ResizeObserver re-checks a
//    box whenever its size changes (a turned phone, a proof unfolded).
// 2. A two-panel slider figure shows its phone frame (the panels stacked, cut apart when the book was
//    built) where the column is narrower than 3/4 of the figure: data-phone-frames maps each frame URL
//    to [phone URL, phone width, phone height, frame width, frame height].
// 3. Not a phone matter but every page's: an optional proof (a prf:proof with `:class: optional`) is
//    folded into a <details> whose summary names it ("Proof of Theorem 4.1 (optional)"), opened by a
//    link into it and for printing. Without the script the proof shows in full.
(function () {
  "use strict";
  function atEnd(box) { return box.scrollLeft + box.clientWidth >= box.scrollWidth - 1; }
  function mark(box) {
    var wide = box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("math-scrolls", wide);
    box.classList.toggle("math-end", wide && atEnd(box));
    // A box that scrolls can be scrolled from the keyboard too (focus, then the arrow keys).
    if (wide) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  }

  function formulas() {
    var boxes = document.querySelectorAll("span.math:not(.math-split), span.math-piece, div.math > mjx-container");
    if (window.ResizeObserver) {
      var observer = new ResizeObserver(function (entries) { entries.forEach(function (e) { mark(e.target); }); });
      boxes.forEach(function (box) { observer.observe(box); });
    }
    boxes.forEach(mark);
    document.addEventListener("scroll", function (event) {
      var box = event.target;
      if (box.classList && box.classList.contains("math-scrolls")) box.classList.toggle("math-end", atEnd(box));
    }, true);
  }

  function sliders() {
    document.querySelectorAll("div.perceptron-slider[data-phone-frames]").forEach(function (slider) {
      var img = slider.querySelector("img");
      var input = slider.querySelector("input");
      var phones = JSON.parse(slider.getAttribute("data-phone-frames"));
      var frames = {};  // phone URL -> frame URL
      Object.keys(phones).forEach(function (url) { frames[phones[url][0]] = url; });
      function fit() {
        var shown = img.getAttribute("src");
        var frame = frames[shown] || shown;
        var phone = phones[frame];
        if (!phone) return;
        var narrow = slider.clientWidth < 0.75 * phone[3];
        var want = narrow ? phone[0] : frame;
        if (want !== shown) img.setAttribute("src", want);
        img.setAttribute("width", narrow ? phone[1] : phone[3]);
        img.setAttribute("height", narrow ? phone[2] : phone[4]);
      }
      input.addEventListener("input", fit);  // runs after the slider's own handler has set its frame
      window.addEventListener("resize", fit);
      fit();
    });
  }

  function proofs() {
    document.querySelectorAll("div.proof.optional").forEach(function (proof) {
      if (proof.parentElement.tagName === "DETAILS") return;
      var fold = document.createElement("details");
      fold.className = "proof-fold";
      var summary = document.createElement("summary");
      // The statement it proves: the nearest numbered block above it (a "Proof idea" may sit between).
      var before = proof.previousElementSibling, number = null;
      for (var hops = 0; before && !number && hops < 6; hops++, before = before.previousElementSibling) {
        if (before.classList.contains("proof")) number = before.querySelector(":scope > .admonition-title > .caption-number");
      }
      summary.textContent = number ? "Proof of " + number.textContent.trim() + " (optional)" : "Proof (optional)";
      proof.parentNode.insertBefore(fold, proof);
      fold.appendChild(summary);
      fold.appendChild(proof);
    });
    function reveal() {
      var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      var fold = target && target.closest("details.proof-fold");
      if (fold) { fold.open = true; target.scrollIntoView(); }
    }
    window.addEventListener("hashchange", reveal);
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("details.proof-fold").forEach(function (fold) { fold.open = true; });
    });
    reveal();
  }

  function start() { proofs(); sliders(); formulas(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
