// Typesets TeX to SVG with MathJax (mathjax-full, pinned in package.json) for book/_ext/coursebook/svg_math.py.
//
// A long-lived process: one JSON request per line on stdin, one JSON answer per line on stdout.
//   {"stylesheet": true}                         -> {"css": "..."}
//   {"formulas": [{"tex": "...", "display": b, "pieces": [...]}]}
//       -> {"html": [...], "cache": "<svg ...>", "errors": [...]}
// A formula in the text wider than SPLIT_EX that svg_math.py could cut at its relation signs
// ("pieces") is typeset piece by piece, with a <wbr> between the pieces, so that a narrow line breaks
// it there; the whole formula's assistive MathML stays, once, in the first piece.
// One request is one page: its formulas share one glyph cache (`cache`, an invisible <svg> of <path>
// definitions the formulas <use>), so each glyph's outline is sent once per page. Every formula keeps
// MathJax's assistive MathML beside the picture, which screen readers read instead of the SVG.
"use strict";

const readline = require("readline");
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));

// Every package the browser's tex-chtml component loads or autoloads, except the two that turn a TeX
// error into red text on the page: an undefined macro or a syntax error must stop the build instead.
const PACKAGES = AllPackages.filter((name) => name !== "noerrors" && name !== "noundefined");

function newDocument() {
  const tex = new TeX({
    packages: PACKAGES,
    formatError: (jax, err) => { throw err; },
  });
  const svg = new SVG({ fontCache: "global" });
  return { doc: mathjax.document("", { InputJax: tex, OutputJax: svg }), svg };
}

// MathJax wraps every node of the formula in a <g data-mml-node="..."> even when the group carries no
// transform, or one whose only content is a single glyph: such a group changes nothing in the picture
// but costs the browser an element to style and lay out (a chapter's formulas were 7,500 SVG elements,
// 40% of its page). The first kind is unwrapped, the second hands its transform to the glyph; groups
// the stylesheet selects (tables, errors, actions) stay.
const KEEP = new Set(["mtable", "mtr", "mlabeledtr", "mtd", "merror", "maction"]);

function unwrapPlainGroups(node) {
  for (const child of [...adaptor.childNodes(node)]) {
    if (adaptor.kind(child) === "#text") continue;
    unwrapPlainGroups(child);
    const attributes = adaptor.allAttributes(child);
    const kind = attributes.find((a) => a.name === "data-mml-node");
    if (adaptor.kind(child) !== "g" || (kind && KEEP.has(kind.value))) continue;
    const names = attributes.map((a) => a.name).filter((name) => name !== "data-mml-node");
    const only = adaptor.childNodes(child);
    if (names.length === 0) {
      for (const grandchild of [...only]) adaptor.insert(grandchild, child);
      adaptor.remove(child);
    } else if (names.length === 1 && names[0] === "transform" && only.length === 1 && adaptor.kind(only[0]) === "use") {
      // A group that only moves one glyph: the glyph moves itself ("A B" on one element = A around B).
      const inner = adaptor.getAttribute(only[0], "transform");
      const outer = adaptor.getAttribute(child, "transform");
      adaptor.setAttribute(only[0], "transform", inner ? `${outer} ${inner}` : outer);
      adaptor.insert(only[0], child);
      adaptor.remove(child);
    }
  }
}

const SPLIT_EX = 16;  // about 130 px: less than half a phone's line

function widthEx(node) {
  const width = adaptor.getAttribute(adaptor.firstChild(node), "width") || "";
  return width.endsWith("ex") ? parseFloat(width) : 0;
}

function convert(doc, tex, display) {
  const node = doc.convert(tex, { display });
  unwrapPlainGroups(adaptor.firstChild(node));
  return node;
}

// The pieces typeset one by one: the first keeps the whole formula's MathML, the others none.
function inPieces(doc, whole, pieces) {
  const mml = adaptor.lastChild(whole);  // mjx-assistive-mml
  return pieces.map((tex, k) => {
    const node = convert(doc, tex, false);
    adaptor.remove(adaptor.lastChild(node));
    if (k === 0) adaptor.append(node, mml);
    return `<span class="math-piece">${adaptor.outerHTML(node)}</span>`;
  }).join("<wbr>");
}

function typesetPage(formulas) {
  const { doc, svg } = newDocument();
  const html = [];
  const errors = [];
  for (const { tex, display, pieces } of formulas) {
    try {
      const node = convert(doc, tex, Boolean(display));
      const split = !display && pieces && pieces.length > 1 && widthEx(node) > SPLIT_EX;
      html.push(split ? inPieces(doc, node, pieces) : adaptor.outerHTML(node));
      errors.push(null);
    } catch (err) {
      html.push(null);
      errors.push(String(err && err.message ? err.message : err));
    }
  }
  const cache = svg.pageElements(doc);
  return { html, cache: cache ? adaptor.outerHTML(cache) : "", errors };
}

function stylesheet() {
  const { doc, svg } = newDocument();
  return { css: adaptor.textContent(svg.styleSheet(doc)) };
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  let answer;
  try {
    const request = JSON.parse(line);
    answer = request.stylesheet ? stylesheet() : typesetPage(request.formulas || []);
  } catch (err) {
    answer = { fatal: String(err && err.stack ? err.stack : err) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
