/* The perceptron playground: Rosenblatt's rule on the reader's own points, in the page.
 *
 * Part 1 is the engine, exposed as window.perceptronPlayground. It makes exactly the updates of
 * the Python package's perceptron.train, bit for bit: JavaScript numbers are IEEE doubles, and
 * every operation below is the one the package performs, in the same order and rounded once:
 *   score  = ((x_1 w_1 + x_2 w_2) + ...) + b     (perceptron._core.sequential_dot, then + b)
 *   update   w_j += (eta y) x_j,  b += y step_b,  step_b = eta c^2
 *   c      = 1 ("one"), R ("radius"), 0 ("none"),  R = max_i ||x_i|| summed as numpy sums
 * Part 2 is the maximum-margin solver used for the picture and the mistake bound. Part 3 is the
 * page's user interface (canvas, controls, live region); it starts only where the page has an
 * element with id "perceptron-playground".
 *
 * No library, no network: this file and playground.css are the whole playground.
 */
(function () {
  "use strict";

  /* ------------------------------------------------------------------ engine ---------------- */

  var BIAS_MODES = ["one", "radius", "none"];
  var RULES = ["margin", "sign"];

  function fail(message) {
    throw new Error(message);
  }

  function checkData(X, y) {
    if (!Array.isArray(X) || X.length === 0) fail("X must be a non-empty array of points");
    var d = Array.isArray(X[0]) ? X[0].length : 0;
    if (d === 0) fail("every point of X must be a non-empty array of numbers");
    for (var i = 0; i < X.length; i++) {
      if (!Array.isArray(X[i]) || X[i].length !== d) fail("X[" + i + "] does not have " + d + " coordinates");
      for (var j = 0; j < d; j++) {
        if (typeof X[i][j] !== "number" || !isFinite(X[i][j])) fail("X[" + i + "][" + j + "] is not a finite number");
      }
    }
    if (!Array.isArray(y) || y.length !== X.length) fail("y must have one label per point of X");
    var pos = false, neg = false;
    for (var k = 0; k < y.length; k++) {
      if (y[k] === 1) pos = true;
      else if (y[k] === -1) neg = true;
      else fail("y[" + k + "] is " + y[k] + "; labels must be -1 or +1");
    }
    if (!pos || !neg) fail("y must contain both labels, -1 and +1");
    return d;
  }

  /* Sum of squares of a row in numpy's order: np.add.reduce along a contiguous axis uses
   * pairwise summation (numpy/_core/src/umath/loops_utils.h.src): fewer than 8 terms are added
   * left to right; up to 128 with eight interleaved accumulators; above that the range is split
   * in two halves (the first a multiple of 8 long) summed recursively. */
  function pairwiseSum(a, start, n) {
    var i, res;
    if (n < 8) {
      res = -0.0; // numpy starts from -0.0 so that a sum of -0.0 stays -0.0
      for (i = 0; i < n; i++) res += a[start + i];
      return res;
    }
    if (n <= 128) {
      var r0 = a[start], r1 = a[start + 1], r2 = a[start + 2], r3 = a[start + 3];
      var r4 = a[start + 4], r5 = a[start + 5], r6 = a[start + 6], r7 = a[start + 7];
      for (i = 8; i < n - (n % 8); i += 8) {
        r0 += a[start + i]; r1 += a[start + i + 1]; r2 += a[start + i + 2]; r3 += a[start + i + 3];
        r4 += a[start + i + 4]; r5 += a[start + i + 5]; r6 += a[start + i + 6]; r7 += a[start + i + 7];
      }
      res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
      for (; i < n; i++) res += a[start + i];
      return res;
    }
    var n2 = Math.floor(n / 2);
    n2 -= n2 % 8;
    return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
  }

  /* ||x|| as np.linalg.norm(X, axis=1) computes it: sqrt of the pairwise sum of the squares. */
  function rowNorm(x) {
    var sq = new Array(x.length);
    for (var j = 0; j < x.length; j++) sq[j] = x[j] * x[j];
    return Math.sqrt(pairwiseSum(sq, 0, sq.length));
  }

  /* R = max_i ||x_i||, as perceptron._core.bias_scale computes it for bias="radius". */
  function maxRowNorm(X) {
    var R = 0;
    for (var i = 0; i < X.length; i++) {
      var r = rowNorm(X[i]);
      if (r > R) R = r;
    }
    return R;
  }

  /* R as perceptron.margins.radius computes it (rescaled when squares would over/underflow). */
  function radius(X) {
    var top = 0, i, j;
    for (i = 0; i < X.length; i++) for (j = 0; j < X[i].length; j++) top = Math.max(top, Math.abs(X[i][j]));
    if (top === 0 || (top > 1e-150 && top < 1e150)) return maxRowNorm(X);
    var scaled = X.map(function (row) { return row.map(function (v) { return v / top; }); });
    return top * maxRowNorm(scaled);
  }

  /* The constant c the bias mode appends to every point; step_b = eta * c**2. */
  function biasScale(X, bias) {
    if (bias === "one") return 1.0;
    if (bias === "radius") return maxRowNorm(X);
    return 0.0;
  }

  function sequentialScore(x, w, b) {
    var s = x[0] * w[0];
    for (var j = 1; j < w.length; j++) s += x[j] * w[j];
    return s + b;
  }

  /* Whether the score makes point (x, y) a mistake under the rule. */
  function isMistake(yi, score, rule) {
    if (rule === "sign") return (score >= 0 ? 1 : -1) !== yi; // sgn(0) = +1 (the sign rule)
    return yi * score <= 0; // the book's rule: on the hyperplane counts as a mistake
  }

  function diverged(what) {
    return new Error("training diverged: " + what + " overflowed to inf/NaN; rescale X or lower eta (or w0/b0)");
  }

  function checkOptions(X, y, options) {
    var d = checkData(X, y);
    var o = options || {};
    var eta = o.eta === undefined ? 1.0 : o.eta;
    if (typeof eta !== "number" || !isFinite(eta) || !(eta > 0)) fail("eta must be a finite number > 0, got " + eta);
    var bias = o.bias === undefined ? "one" : o.bias;
    if (BIAS_MODES.indexOf(bias) < 0) fail("bias must be one of 'one', 'radius', 'none', got " + bias);
    var rule = o.rule === undefined ? "margin" : o.rule;
    if (RULES.indexOf(rule) < 0) fail("rule must be 'margin' or 'sign', got " + rule);
    var maxEpochs = o.maxEpochs === undefined ? 1000 : o.maxEpochs;
    if (!Number.isInteger(maxEpochs) || maxEpochs < 1) fail("maxEpochs must be an integer >= 1, got " + maxEpochs);
    var w0 = o.w0 === undefined || o.w0 === null ? null : o.w0;
    if (w0 !== null) {
      if (!Array.isArray(w0) || w0.length !== d) fail("w0 must have " + d + " coordinates");
      w0.forEach(function (v) { if (typeof v !== "number" || !isFinite(v)) fail("w0 must be finite"); });
    }
    var b0 = o.b0 === undefined ? 0.0 : o.b0;
    if (typeof b0 !== "number" || !isFinite(b0)) fail("b0 must be a finite number, got " + b0);
    var c = biasScale(X, bias);
    return {
      d: d, eta: eta, bias: bias, rule: rule, maxEpochs: maxEpochs, b0: b0,
      w0: w0 === null ? new Array(d).fill(0.0) : w0.slice(),
      stepB: eta * (c * c),
      shuffle: !!o.shuffle, seed: o.seed === undefined ? null : o.seed,
    };
  }

  /* numpy's default_rng(seed).permutation(n), bit for bit, so that a shuffled run visits the points
   * in the order perceptron.train(..., shuffle=True, seed=seed) does. Three layers, as numpy has them:
   * SeedSequence (32-bit hash mixing of the seed's words into 4 x 64 bits), PCG64 (128-bit LCG with
   * the XSL-RR output; BigInt arithmetic), and Generator.shuffle (Fisher-Yates from the last
   * element down, each index drawn by rejection from a bit mask, 32-bit draws taken as the two
   * halves of one 64-bit output). tests/book/test_playground.py compares whole runs with numpy's. */
  var PCG_MULT = (2549297995355413924n << 64n) + 4865540595714422341n;
  var M64 = (1n << 64n) - 1n, M128 = (1n << 128n) - 1n;

  function seedSequenceState(seed) {
    var words = [], s = BigInt(seed);
    do { words.push(Number(s & 0xffffffffn)); s >>= 32n; } while (s > 0n);
    var h = 0x43b0d7e5;
    function hashmix(v) {
      v = (v ^ h) >>> 0;
      h = Math.imul(h, 0x931e8875) >>> 0;
      v = Math.imul(v, h) >>> 0;
      return (v ^ (v >>> 16)) >>> 0;
    }
    function mix(x, y) {
      var r = (Math.imul(0xca01f9dd, x) - Math.imul(0x4973f715, y)) >>> 0;
      return (r ^ (r >>> 16)) >>> 0;
    }
    var pool = [], a, b;
    for (a = 0; a < 4; a++) pool.push(hashmix(a < words.length ? words[a] : 0));
    for (a = 0; a < 4; a++) for (b = 0; b < 4; b++) if (a !== b) pool[b] = mix(pool[b], hashmix(pool[a]));
    for (a = 4; a < words.length; a++) for (b = 0; b < 4; b++) pool[b] = mix(pool[b], hashmix(words[a]));
    var hc = 0x8b51f9dd, out = [];
    for (a = 0; a < 8; a++) {
      var v = (pool[a % 4] ^ hc) >>> 0;
      hc = Math.imul(hc, 0x58f38ded) >>> 0;
      v = Math.imul(v, hc) >>> 0;
      out.push((v ^ (v >>> 16)) >>> 0);
    }
    var state = [];
    for (a = 0; a < 4; a++) state.push(BigInt(out[2 * a]) | (BigInt(out[2 * a + 1]) << 32n));
    return state;
  }

  function NumpyRng(seed) {
    if (!Number.isSafeInteger(seed) || seed < 0) fail("seed must be a whole number >= 0, got " + seed);
    var w = seedSequenceState(seed);
    var initState = (w[0] << 64n) | w[1], initSeq = (w[2] << 64n) | w[3];
    this.inc = ((initSeq << 1n) | 1n) & M128;
    this.state = 0n;
    this.step();
    this.state = (this.state + initState) & M128;
    this.step();
    this.half = null;
  }
  NumpyRng.prototype.step = function () { this.state = (this.state * PCG_MULT + this.inc) & M128; };
  NumpyRng.prototype.next64 = function () {
    this.step();
    var s = this.state, x = ((s >> 64n) ^ s) & M64, r = s >> 122n;
    return ((x >> r) | (x << ((64n - r) & 63n))) & M64;
  };
  NumpyRng.prototype.next32 = function () {
    if (this.half !== null) { var h = this.half; this.half = null; return h; }
    var n = this.next64();
    this.half = Number(n >> 32n);
    return Number(n & 0xffffffffn);
  };
  NumpyRng.prototype.interval = function (max) {
    if (max === 0) return 0;
    if (max > 0xffffffff) fail("more than 2**32 points");
    var mask = 1, value;
    while (mask < max) mask = mask * 2 + 1;
    do { value = (this.next32() & mask) >>> 0; } while (value > max);
    return value;
  };
  NumpyRng.prototype.permutation = function (n) {
    var a = new Array(n), i;
    for (i = 0; i < n; i++) a[i] = i;
    for (i = n - 1; i > 0; i--) {
      var j = this.interval(i), t = a[i];
      a[i] = a[j]; a[j] = t;
    }
    return a;
  };

  /* perceptron.train(X, y, eta=..., bias=..., w0=..., b0=..., max_epochs=..., rule=...,
   * shuffle=..., seed=..., record=True); options {eta, bias, w0, b0, maxEpochs, rule, shuffle, seed}
   * (shuffle: a fresh numpy permutation every epoch; seed 0 when none is given). */
  function train(X, y, options) {
    var o = checkOptions(X, y, options);
    var n = X.length, d = o.d, w = o.w0, b = o.b0, eta = o.eta, stepB = o.stepB, rule = o.rule;
    var history = [], mistakes = 0, epoch = 0, clean = false, j;
    var rng = o.shuffle ? new NumpyRng(o.seed === null ? 0 : o.seed) : null;
    while (epoch < o.maxEpochs && !clean) {
      epoch += 1;
      clean = true;
      var order = rng === null ? null : rng.permutation(n);
      for (var k = 0; k < n; k++) {
        var i = order === null ? k : order[k];
        var x = X[i], yi = y[i];
        var score = sequentialScore(x, w, b);
        if (!isFinite(score)) throw diverged("a score");
        if (isMistake(yi, score, rule)) {
          var step = eta * yi;
          for (j = 0; j < d; j++) w[j] += step * x[j];
          b += yi * stepB;
          mistakes += 1;
          clean = false;
          history.push({ index: i, epoch: epoch, w: w.slice(), b: b });
        }
      }
      for (j = 0; j < d; j++) if (!isFinite(w[j])) throw diverged("the weights");
      if (!isFinite(b)) throw diverged("the weights");
    }
    return {
      w: w, b: b, mistakes: mistakes, epochs: epoch, converged: clean, history: history,
      errors: countErrors(X, y, w, b, rule),
    };
  }

  /* The training errors of (w, b) under the rule (scores summed left to right). */
  function countErrors(X, y, w, b, rule) {
    var errors = 0;
    for (var i = 0; i < X.length; i++) if (isMistake(y[i], sequentialScore(X[i], w, b), rule || "margin")) errors += 1;
    return errors;
  }

  /* ------------------------------------------------------- maximum margin -------------------- */

  function dot(a, b) {
    var s = 0;
    for (var j = 0; j < a.length; j++) s += a[j] * b[j];
    return s;
  }

  /* The point of least norm in the affine hull of the atoms c_0..c_k, and its affine coefficients
   * alpha (sum 1), or null when the atoms are affinely dependent. The hull is c_0 + span(D),
   * D = (c_1 - c_0, ...); D is orthonormalised (Gram-Schmidt, twice for accuracy) and c_0 is
   * projected off it. Working on D rather than on the Gram matrix of the atoms avoids squaring
   * the condition number (data far from unit scale, or the 1 appended by bias "one"). */
  function affineMinimizer(corral) {
    var c0 = corral[0], k = corral.length - 1, Q = [], R = [], i, j, pass;
    for (j = 0; j < k; j++) {
      var v = corral[j + 1].map(function (t, l) { return t - c0[l]; });
      var size = Math.sqrt(dot(v, v));
      R.push(new Array(k).fill(0));
      for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < j; i++) {
          var r = dot(Q[i], v);
          R[i][j] += r;
          for (var l = 0; l < v.length; l++) v[l] -= r * Q[i][l];
        }
      }
      var nv = Math.sqrt(dot(v, v));
      if (!(nv > 1e-12 * size) || size === 0) return null;
      R[j][j] = nv;
      Q.push(v.map(function (t) { return t / nv; }));
    }
    // x = c_0 + D t with R t = -Q^T c_0; x itself is c_0 projected off span(Q).
    var g = Q.map(function (q) { return -dot(q, c0); });
    var t = new Array(k);
    for (i = k - 1; i >= 0; i--) {
      var acc = g[i];
      for (j = i + 1; j < k; j++) acc -= R[i][j] * t[j];
      t[i] = acc / R[i][i];
    }
    var x = c0.slice();
    for (pass = 0; pass < 2; pass++) {
      Q.forEach(function (q) {
        var r = dot(q, x);
        for (var l = 0; l < x.length; l++) x[l] -= r * q[l];
      });
    }
    var alpha = [1 - t.reduce(function (acc, v) { return acc + v; }, 0)].concat(t);
    return { x: x, alpha: alpha };
  }

  /* The point of smallest norm in the convex hull of a set of "atoms", by Wolfe's algorithm
   * (P. Wolfe, "Finding the nearest point in a polytope", Math. Programming 11, 1976): a finite
   * active-set method whose iterate is the affine minimiser of a small affinely independent
   * "corral" of atoms. The atoms are given through a linear minimisation oracle: lmo(x) returns
   * the atom a minimising <x, a>. Returns the nearest point. */
  function nearestPoint(lmo, start) {
    var corral = [start.slice()], lam = [1], x = start.slice(), outer, inner, k;
    for (outer = 0; outer < 500; outer++) {
      var a = lmo(x);
      var xx = dot(x, x);
      if (xx - dot(x, a) <= 1e-14 * xx) break; // x is optimal (no atom improves on it)
      var present = corral.some(function (c) { return c.every(function (v, j) { return v === a[j]; }); });
      if (present) break;
      corral.push(a.slice());
      lam.push(0);
      for (inner = 0; inner < 50; inner++) {
        var aff = affineMinimizer(corral);
        if (aff === null) { // the new atom adds no dimension: x was optimal after all
          corral.pop(); lam.pop();
          return x;
        }
        if (aff.alpha.every(function (v) { return v > 0; })) { lam = aff.alpha; x = aff.x; break; }
        // Move from lam towards alpha until a coefficient reaches zero; drop those atoms.
        var theta = 1;
        for (k = 0; k < corral.length; k++) {
          if (aff.alpha[k] <= 0) theta = Math.min(theta, lam[k] / (lam[k] - aff.alpha[k]));
        }
        var keepC = [], keepL = [];
        for (k = 0; k < corral.length; k++) {
          var l = theta * aff.alpha[k] + (1 - theta) * lam[k];
          if (l > 1e-15) { keepC.push(corral[k]); keepL.push(l); }
        }
        if (keepC.length === 0) return x;
        corral = keepC; lam = keepL;
        x = combine(corral, lam);
      }
    }
    return x;
  }

  function combine(corral, lam) {
    var x = new Array(corral[0].length).fill(0);
    var total = lam.reduce(function (s, v) { return s + v; }, 0);
    corral.forEach(function (c, k) { for (var j = 0; j < x.length; j++) x[j] += (lam[k] / total) * c[j]; });
    return x;
  }

  function argminDot(points, x) {
    var best = 0, bestValue = Infinity;
    for (var i = 0; i < points.length; i++) {
      var v = dot(points[i], x);
      if (v < bestValue) { bestValue = v; best = i; }
    }
    return best;
  }

  /* The largest margin of a hyperplane through the origin: the separating direction is the
   * point of conv{y_i x_i} nearest the origin, and the margin its norm. null when the origin
   * lies in that hull (no hyperplane through the origin separates the data). */
  function maxMarginThroughOrigin(X, y) {
    var Z = X.map(function (x, i) { return x.map(function (v) { return y[i] * v; }); });
    var scale = maxRowNorm(Z);
    if (scale === 0) return null;
    Z = Z.map(function (z) { return z.map(function (v) { return v / scale; }); });
    var x = nearestPoint(function (dir) { return Z[argminDot(Z, dir)]; }, Z[0]);
    var norm = Math.sqrt(dot(x, x));
    if (!(norm > 1e-12)) return null;
    var w = x.map(function (v) { return v / norm; });
    var gamma = Infinity;
    for (var i = 0; i < X.length; i++) gamma = Math.min(gamma, y[i] * dot(w, X[i]));
    return gamma > 0 ? { w: w, b: 0, gamma: gamma } : null;
  }

  /* The maximum-margin line with an offset (hard-margin SVM): twice its margin is the distance
   * between the convex hulls of the two classes, so its normal is the nearest point to the
   * origin of conv(P) - conv(N); the oracle of that difference splits into one per class.
   * Returns {w, b, gamma} with ||w|| = 1, or null when no hyperplane separates the classes. */
  function maxMargin(X, y) {
    checkData(X, y);
    var P = [], N = [], i;
    for (i = 0; i < X.length; i++) (y[i] > 0 ? P : N).push(X[i]);
    var scale = radius(X);
    if (scale === 0) return null;
    var Ps = P.map(function (p) { return p.map(function (v) { return v / scale; }); });
    var Ns = N.map(function (q) { return q.map(function (v) { return v / scale; }); });
    function lmo(dir) {
      var p = Ps[argminDot(Ps, dir)];
      var neg = dir.map(function (v) { return -v; });
      var q = Ns[argminDot(Ns, neg)];
      return p.map(function (v, j) { return v - q[j]; });
    }
    var start = Ps[0].map(function (v, j) { return v - Ns[0][j]; });
    var x = nearestPoint(lmo, start);
    var norm = Math.sqrt(dot(x, x));
    if (!(norm > 1e-12)) return null;
    var w = x.map(function (v) { return v / norm; });
    var lowP = Infinity, highN = -Infinity;
    P.forEach(function (p) { lowP = Math.min(lowP, dot(w, p)); });
    N.forEach(function (q) { highN = Math.max(highN, dot(w, q)); });
    if (!(lowP > highN)) return null;
    var b = -(lowP + highN) / 2;
    var gamma = Infinity;
    for (i = 0; i < X.length; i++) gamma = Math.min(gamma, y[i] * (dot(w, X[i]) + b));
    return gamma > 0 ? { w: w, b: b, gamma: gamma } : null;
  }

  /* perceptron.mistake_bound(X, y, bias=...): null when the data are not separable in the way
   * the bias mode needs. */
  function mistakeBound(X, y, bias) {
    checkData(X, y);
    bias = bias || "one";
    if (BIAS_MODES.indexOf(bias) < 0) fail("bias must be one of 'one', 'radius', 'none', got " + bias);
    var best, R;
    if (bias === "one") {
      var Xa = X.map(function (x) { return x.concat([1.0]); });
      R = radius(Xa);
      best = maxMarginThroughOrigin(Xa, y);
    } else if (bias === "radius") {
      R = radius(X);
      best = maxMargin(X, y);
    } else {
      R = radius(X);
      best = maxMarginThroughOrigin(X, y);
    }
    if (best === null) return null;
    var factor = bias === "radius" ? 2.0 : 1.0;
    var q = (factor * R) / best.gamma;
    return q * q;
  }

  var engine = {
    train: train,
    maxMargin: maxMargin,
    maxMarginThroughOrigin: maxMarginThroughOrigin,
    mistakeBound: mistakeBound,
    radius: radius,
    biasScale: biasScale,
    countErrors: countErrors,
    sequentialScore: sequentialScore,
    isMistake: isMistake,
    NumpyRng: NumpyRng,
  };
  window.perceptronPlayground = engine;

  /* ---------------------------------------------------------------- presets ----------------- */

  // The chapters' datasets, exactly as Python makes them: playground_presets.json beside this script,
  // written by book/_ext/coursebook/playground.py and fetched when the page starts.
  var PRESETS = [];
  var PRESETS_URL = typeof document !== "undefined" && document.currentScript
    ? new URL("playground_presets.json", document.currentScript.src).href : null;

  /* ------------------------------------------------------------ user interface --------------- */

  // The colours of the book's figures (perceptron.plotting): Okabe-Ito blue and vermillion.
  var COLORS = { pos: "#0072B2", neg: "#D55E00", boundary: "#222222", accent: "#009E73", radius: "#6b6b6b" };

  function fmt(v, digits) {
    if (v === null || v === undefined || !isFinite(v)) return "\u2014";
    var s = Number(v.toPrecision(digits || 4));
    return String(s).replace(/-/g, "\u2212");
  }

  /* "1 update", "2 updates", "0 updates". */
  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  function Playground(root) {
    this.root = root;
    this.points = [];      // {x: [x1, x2], y: +1/-1}
    this.undoStack = [];
    this.view = 5;         // the canvas shows [-view, view]^2
    this.cursor = [0, 0];
    this.grabbed = -1;     // index of the point the keyboard is moving, or -1
    this.done = {};        // the tasks done, by key
    this.records = [];     // the runs that converged, for the tasks that compare two runs
    this.build();
    this.dataChanged();
  }

  Playground.prototype.build = function () {
    var self = this, root = this.root;
    root.classList.add("pp");
    var help = el("p", { id: "pp-keys", class: "pp-help" }, [
      "Tap or click the plot to do what is chosen above it: add a point of either class, or delete the point " +
      "you tap. Drag a point to move it. With a mouse, Shift-click adds the other class and a double-click " +
      "deletes. With the keyboard, focus the plot: arrow keys move the cursor " +
      "(Shift: larger steps), + or P adds a +1 point, \u2212 or N adds a \u22121 point, Delete removes the " +
      "point nearest the cursor, G picks up or drops it (then arrows move it), U undoes.",
    ]);
    this.canvas = el("canvas", {
      width: "520", height: "520", tabindex: "0", role: "application", class: "pp-canvas",
      "aria-label": "Perceptron playground plot: the points, the current boundary and the maximum-margin line",
      "aria-describedby": "pp-keys",
    });
    // What a tap or click on the plot does, right above it (on a phone there is no Shift key).
    this.classPos = el("input", { type: "radio", name: "pp-class", id: "pp-class-pos", value: "1" });
    this.classPos.checked = true;
    this.classNeg = el("input", { type: "radio", name: "pp-class", id: "pp-class-neg", value: "-1" });
    this.tapDelete = el("input", { type: "radio", name: "pp-class", id: "pp-tap-delete", value: "delete" });
    var classes = el("fieldset", { class: "pp-classes", id: "pp-tap" }, [
      el("legend", { text: "A tap on the plot" }),
      el("span", { class: "pp-choice" }, [this.classPos, el("label", { for: "pp-class-pos", class: "pp-pos", text: "adds +1 (\u25cf blue)" })]),
      el("span", { class: "pp-choice" }, [this.classNeg, el("label", { for: "pp-class-neg", class: "pp-neg", text: "adds \u22121 (\u25a0 vermillion)" })]),
      el("span", { class: "pp-choice" }, [this.tapDelete, el("label", { for: "pp-tap-delete", text: "deletes a point" })]),
    ]);
    var plot = el("div", { class: "pp-plot" }, [classes, this.canvas, help]);

    // The tasks, first: each item's mark turns to "Done", and the news line under the run buttons
    // (a live region) says which task was done and how.
    var list = el("ol", { class: "pp-task-list" });
    this.taskItems = TASKS.map(function (task) {
      var mark = el("span", { class: "pp-task-mark", text: "To do" });
      var li = el("li", { class: "pp-task", "data-task": task.key }, [mark, " ", el("strong", { text: task.title }), " " + task.text]);
      list.appendChild(li);
      return { li: li, mark: mark };
    });
    this.taskProgress = el("p", { class: "pp-task-progress", id: "pp-task-progress", text: "0 of " + TASKS.length + " done." });
    var tasks = el("section", { class: "pp-tasks", id: "pp-tasks", "aria-labelledby": "pp-tasks-heading" }, [
      el("h2", { class: "pp-heading", id: "pp-tasks-heading", text: "Try this" }),
      el("p", { text: "Each task checks itself: its mark turns to \u201cDone\u201d and the line under the Run buttons " +
        "says what you found, or what went wrong when a run misses a task." }),
      list, this.taskProgress,
    ]);
    this.taskNews = el("div", { class: "pp-task-news", role: "status", "aria-live": "polite", id: "pp-task-news" });

    function labelled(id, text, control) {
      control.id = id;
      return el("div", { class: "pp-field" }, [el("label", { for: id, text: text }), control]);
    }
    function number(value, step, min) {
      var input = el("input", { type: "number", value: String(value), step: step || "any" });
      if (min !== undefined) input.setAttribute("min", String(min));
      return input;
    }
    function select(options) {
      var s = el("select");
      options.forEach(function (o) { s.appendChild(el("option", { value: o[0], text: o[1] })); });
      return s;
    }
    function button(text, handler, id) {
      var b = el("button", { type: "button", class: "pp-button", text: text });
      if (id) b.id = id;
      b.addEventListener("click", handler);
      return b;
    }

    // Points: presets, undo, clear (what a tap does is chosen above the plot).
    this.preset = select(PRESETS.map(function (p) { return [p.key, p.label]; }));
    this.presetCall = el("p", { class: "pp-call", id: "pp-preset-call" });
    var pointsBox = el("fieldset", { class: "pp-box" }, [
      el("legend", { text: "Points" }),
      labelled("pp-preset", "Preset", this.preset),
      el("div", { class: "pp-row" }, [
        button("Load preset", function () { self.loadPreset(self.preset.value); }, "pp-load"),
        button("Undo", function () { self.undo(); }, "pp-undo"),
        button("Clear", function () { self.edit(function () { self.points = []; }); self.say("All points cleared."); }, "pp-clear"),
      ]),
      this.presetCall,
    ]);

    // Settings.
    this.bias = select([["one", "\"one\": b += \u03b7y"], ["radius", "\"radius\": b += \u03b7yR\u00b2"], ["none", "\"none\": no bias"]]);
    this.rule = select([["margin", "the book: y(w\u00b7x+b) \u2264 0"], ["sign", "sign rule: y \u2260 sgn(w\u00b7x+b)"]]);
    this.eta = number(1, "any", 0);
    this.w01 = number(0); this.w02 = number(0); this.b0 = number(0);
    this.order = select([["fixed", "fixed: 0, 1, 2, \u2026"], ["shuffled", "shuffled every epoch"]]);
    this.seed = number(0, "1", 0);
    this.maxEpochs = number(1000, "1", 1);
    var settings = el("fieldset", { class: "pp-box" }, [
      el("legend", { text: "Training" }),
      labelled("pp-bias", "Bias mode", this.bias),
      labelled("pp-rule", "Mistake rule", this.rule),
      labelled("pp-eta", "Learning rate \u03b7", this.eta),
      el("div", { class: "pp-row" }, [
        labelled("pp-w01", "w\u2080 first", this.w01), labelled("pp-w02", "w\u2080 second", this.w02),
        labelled("pp-b0", "b\u2080", this.b0),
      ]),
      el("div", { class: "pp-row" }, [labelled("pp-order", "Order", this.order), labelled("pp-seed", "Seed", this.seed)]),
      labelled("pp-max-epochs", "Largest number of epochs", this.maxEpochs),
    ]);
    [this.bias, this.rule, this.eta, this.w01, this.w02, this.b0, this.order, this.seed, this.maxEpochs].forEach(function (c) {
      c.addEventListener("change", function () { self.reset(); self.say("Settings changed; training restarted."); });
    });

    // Run controls.
    var runBox = el("fieldset", { class: "pp-box" }, [
      el("legend", { text: "Run" }),
      el("div", { class: "pp-row" }, [
        button("Step one visit", function () { self.act("visit"); }, "pp-step"),
        button("Step to next update", function () { self.act("update"); }, "pp-next-update"),
        button("Run one epoch", function () { self.act("epoch"); }, "pp-epoch-run"),
        button("Run to convergence", function () { self.act("converge"); }, "pp-converge"),
        button("Reset", function () { self.reset(); self.say("Training reset to the start weights."); }, "pp-reset"),
      ]),
    ]);

    // Layers shown.
    this.showRadius = el("input", { type: "checkbox", id: "pp-show-radius" });
    this.showRadius.checked = true;
    this.showMargin = el("input", { type: "checkbox", id: "pp-show-margin" });
    this.showMargin.checked = true;
    this.showPocket = el("input", { type: "checkbox", id: "pp-show-pocket" });
    var layers = el("fieldset", { class: "pp-box pp-layers" }, [
      el("legend", { text: "Show" }),
      this.showRadius, el("label", { for: "pp-show-radius", text: "radius circle" }),
      this.showMargin, el("label", { for: "pp-show-margin", text: "maximum-margin line and band" }),
      this.showPocket, el("label", { for: "pp-show-pocket", text: "pocket\u2019s best line" }),
    ]);
    [this.showRadius, this.showMargin, this.showPocket].forEach(function (c) {
      c.addEventListener("change", function () { self.render(); });
    });

    // Numbers.
    this.out = {};
    var stats = el("dl", { class: "pp-stats" });
    [["updates", "Updates"], ["epoch", "Epoch"], ["errors", "Training errors"], ["w", "w, b"],
     ["radius", "R = max\u2016x\u1d62\u2016"], ["gamma", "\u03b3* (largest margin)"], ["bound", "Mistake bound"],
     ["pocket", "Pocket (fewest errors so far)"], ["state", "State"]].forEach(function (pair) {
      var dd = el("dd", { id: "pp-" + pair[0] });
      self.out[pair[0]] = dd;
      stats.appendChild(el("dt", { text: pair[1] }));
      stats.appendChild(dd);
    });
    this.live = el("div", { class: "pp-live", role: "status", "aria-live": "polite", id: "pp-live" });
    this.code = el("textarea", { id: "pp-code", readonly: "", rows: "6", spellcheck: "false" });
    var codeBox = el("details", { class: "pp-code" }, [
      el("summary", { text: "The same run in Python" }),
      el("label", { for: "pp-code", text: "Paste into a notebook: perceptron.train makes exactly these updates (fixed order)." }),
      this.code,
    ]);

    // Left: the plot, the run buttons under it, the live numbers; right: data and settings.
    [runBox, this.live, this.taskNews, el("h2", { text: "Numbers", class: "pp-heading" }), stats].forEach(function (node) {
      plot.appendChild(node);
    });
    var panel = el("div", { class: "pp-panel" }, [pointsBox, settings, layers]);
    root.appendChild(tasks);
    root.appendChild(el("div", { class: "pp-grid" }, [plot, panel, el("div", { class: "pp-readout" }, [codeBox])]));

    this.ctx = this.canvas.getContext("2d");
    this.bindPointer();
    this.bindKeys();
    this.canvas.addEventListener("focus", function () { self.render(); });
    this.canvas.addEventListener("blur", function () { self.render(); });
  };

  /* ----- data editing ----- */

  Playground.prototype.snapshot = function () {
    return this.points.map(function (p) { return { x: p.x.slice(), y: p.y }; });
  };

  Playground.prototype.edit = function (change) {
    this.undoStack.push(this.snapshot());
    if (this.undoStack.length > 200) this.undoStack.shift();
    change();
    this.dataChanged();
  };

  Playground.prototype.undo = function () {
    if (!this.undoStack.length) { this.say("Nothing to undo."); return; }
    this.points = this.undoStack.pop();
    this.grabbed = -1;
    this.dataChanged();
    this.say("Undone: " + plural(this.points.length, "point") + ".");
  };

  Playground.prototype.setPoints = function (X, y) {
    var self = this;
    this.edit(function () { self.points = X.map(function (x, i) { return { x: [x[0], x[1]], y: y[i] }; }); });
    this.fitView();
    this.dataChanged();
  };

  Playground.prototype.loadPreset = function (key) {
    var p = PRESETS.filter(function (q) { return q.key === key; })[0];
    if (!p) return;
    this.setPoints(p.X, p.y);
    this.say("Loaded " + p.label + ".");
  };

  /* The "Python:" line under the presets: the current points as Python gets them. */
  Playground.prototype.pointsInPython = function () {
    var X = this.X, y = this.y, n = X.length;
    if (n === 0) return "Python: no points yet.";
    var preset = PRESETS.filter(function (p) {
      return p.X.length === n && p.y.every(function (label, i) {
        return label === y[i] && p.X[i][0] === X[i][0] && p.X[i][1] === X[i][1];
      });
    })[0];
    if (preset) return "Python: X, y = " + preset.call;
    if (n <= 10) return "Python: X = " + JSON.stringify(X).replace(/,/g, ", ") + ", y = " + JSON.stringify(y).replace(/,/g, ", ");
    return "Python: your " + n + " points are the X and y of \u201cThe same run in Python\u201d below.";
  };

  Playground.prototype.fitView = function () {
    var top = 1;
    this.points.forEach(function (p) { top = Math.max(top, Math.abs(p.x[0]), Math.abs(p.x[1])); });
    var raw = top * 1.15, unit = Math.pow(10, Math.floor(Math.log10(raw)));
    this.view = Math.ceil(raw / (unit / 2)) * (unit / 2);
    this.cursor = [0, 0];
  };

  Playground.prototype.gridStep = function () { return Math.pow(10, Math.floor(Math.log10(this.view)) - 2); };

  Playground.prototype.snap = function (v) {
    var g = this.gridStep();
    return Number((Math.round(v / g) * g).toFixed(Math.max(0, -Math.round(Math.log10(g)))));
  };

  Playground.prototype.addPoint = function (x, label) {
    var self = this, p = { x: [this.snap(x[0]), this.snap(x[1])], y: label };
    this.edit(function () { self.points.push(p); });
    this.say("Added point " + (this.points.length - 1) + " of class " + (label > 0 ? "+1" : "\u22121") +
      " at (" + fmt(p.x[0], 6) + ", " + fmt(p.x[1], 6) + "); " + plural(this.points.length, "point") + ".");
  };

  Playground.prototype.removePoint = function (k) {
    var self = this;
    if (k < 0) return;
    this.edit(function () { self.points.splice(k, 1); });
    this.say("Removed point " + k + "; " + plural(this.points.length, "point") + ".");
  };

  Playground.prototype.nearest = function (x, limit) {
    var best = -1, bestD = limit === undefined ? Infinity : limit * limit;
    this.points.forEach(function (p, k) {
      var d = (p.x[0] - x[0]) * (p.x[0] - x[0]) + (p.x[1] - x[1]) * (p.x[1] - x[1]);
      if (d < bestD) { bestD = d; best = k; }
    });
    return best;
  };

  Playground.prototype.dataChanged = function () {
    var X = this.points.map(function (p) { return p.x; }), y = this.points.map(function (p) { return p.y; });
    this.X = X; this.y = y;
    this.presetCall.textContent = this.pointsInPython();
    var both = y.indexOf(1) >= 0 && y.indexOf(-1) >= 0;
    this.best = both ? maxMargin(X, y) : null;
    this.R = X.length ? radius(X) : null;
    this.bounds = {};
    if (both) {
      var self = this;
      BIAS_MODES.forEach(function (mode) { self.bounds[mode] = mistakeBound(X, y, mode); });
    }
    this.reset();
  };

  /* ----- training state ----- */

  Playground.prototype.settings = function () {
    var eta = Number(this.eta.value), maxEpochs = Number(this.maxEpochs.value), seed = Number(this.seed.value);
    var w0 = [Number(this.w01.value), Number(this.w02.value)], b0 = Number(this.b0.value);
    if (!(eta > 0) || !isFinite(eta)) return { error: "The learning rate must be a number > 0." };
    if (!Number.isInteger(maxEpochs) || maxEpochs < 1) return { error: "The largest number of epochs must be a whole number \u2265 1." };
    if (!Number.isSafeInteger(seed) || seed < 0) return { error: "The seed must be a whole number \u2265 0." };
    if (!w0.every(isFinite) || !isFinite(b0) || this.w01.value === "" || this.w02.value === "" || this.b0.value === "") {
      return { error: "The start w\u2080, b\u2080 must be numbers." };
    }
    return { eta: eta, bias: this.bias.value, rule: this.rule.value, w0: w0, b0: b0, maxEpochs: maxEpochs,
      shuffled: this.order.value === "shuffled", seed: seed };
  };

  Playground.prototype.reset = function () {
    var s = this.settings();
    this.run = null;
    this.problem = s.error || null;
    if (!s.error && this.points.length) {
      var both = this.y.indexOf(1) >= 0 && this.y.indexOf(-1) >= 0;
      if (!both) this.problem = "Add points of both classes to train.";
    } else if (!s.error) {
      this.problem = "Add points of both classes to train.";
    }
    if (!this.problem) {
      var c = biasScale(this.X, s.bias);
      var errors = countErrors(this.X, this.y, s.w0, s.b0, s.rule);
      this.run = {
        s: s, w: s.w0.slice(), b: s.b0, stepB: s.eta * (c * c), epoch: 0, pos: 0, order: null,
        epochMistakes: 0, updates: 0, visited: -1, updated: -1, finished: false, converged: false, path: [],
        errors: errors, seen: {}, cycle: null, rng: s.shuffled ? new NumpyRng(s.seed) : null,
        pocket: { w: s.w0.slice(), b: s.b0, errors: errors },
      };
      this.run.seen[this.stateKey(this.run)] = 0;
    }
    this.render();
  };

  Playground.prototype.stateKey = function (r) { return r.w.join(",") + "|" + r.b; };

  Playground.prototype.nextOrder = function (r) {
    if (r.rng) return r.rng.permutation(this.X.length);
    var n = this.X.length, order = new Array(n);
    for (var k = 0; k < n; k++) order[k] = k;
    return order;
  };

  /* Visit one point, exactly as perceptron.train's loop does; return true on an update. */
  Playground.prototype.visit = function () {
    var r = this.run;
    if (!r || r.finished) return false;
    if (r.pos === 0) {
      r.epoch += 1;
      r.order = this.nextOrder(r);
      r.epochMistakes = 0;
    }
    var i = r.order[r.pos], x = this.X[i], yi = this.y[i], updated = false;
    var score = sequentialScore(x, r.w, r.b);
    if (!isFinite(score)) { r.finished = true; r.error = "Training diverged: a score overflowed."; return false; }
    r.visited = i;
    if (isMistake(yi, score, r.s.rule)) {
      var step = r.s.eta * yi;
      for (var j = 0; j < r.w.length; j++) r.w[j] += step * x[j];
      r.b += yi * r.stepB;
      r.updates += 1;
      r.epochMistakes += 1;
      r.updated = i;
      r.path.push(i);
      r.errors = countErrors(this.X, this.y, r.w, r.b, r.s.rule);
      if (r.errors < r.pocket.errors) r.pocket = { w: r.w.slice(), b: r.b, errors: r.errors };
      updated = true;
    }
    r.pos += 1;
    if (r.pos === this.X.length) {
      r.pos = 0;
      if (r.epochMistakes === 0) {
        r.finished = true;
        r.converged = true;
      } else {
        var key = this.stateKey(r);
        if (r.cycle === null && Object.prototype.hasOwnProperty.call(r.seen, key)) {
          r.cycle = { first: r.seen[key], again: r.epoch };
        } else if (!Object.prototype.hasOwnProperty.call(r.seen, key)) {
          r.seen[key] = r.epoch;
        }
        if (r.epoch >= r.s.maxEpochs) r.finished = true;
      }
    }
    return updated;
  };

  Playground.prototype.act = function (what) {
    var r = this.run;
    if (!r) { this.say(this.problem || "Nothing to train."); this.render(); return; }
    if (r.finished) { this.render(); this.say(this.stateText()); return; }
    var updated = false, startEpoch = r.epoch, startUpdates = r.updates;
    if (what === "visit") {
      updated = this.visit();
    } else if (what === "update") {
      while (!r.finished && !(updated = this.visit())) { /* visit until an update */ }
    } else if (what === "epoch") {
      do { updated = this.visit() || updated; } while (!r.finished && r.pos !== 0);
    } else {
      while (!r.finished) this.visit();
    }
    this.render();
    if (what === "visit" || what === "update") {
      if (updated) {
        this.say("Update " + r.updates + " on point " + r.updated + ": " + plural(r.errors, "error") + " left.");
      } else if (r.finished) {
        this.say(this.stateText());
      } else {
        this.say("Point " + r.visited + ": no mistake.");
      }
    } else {
      this.say(plural(r.updates - startUpdates, "update") + " in epoch" + (r.epoch - startEpoch > 1 ? "s " + (startEpoch + 1) + " to " : " ") +
        r.epoch + ". " + this.stateText());
    }
  };

  Playground.prototype.stateText = function () {
    var r = this.run;
    if (!r) return this.problem || "";
    if (r.error) return r.error;
    var text;
    if (r.converged) text = "Converged: epoch " + r.epoch + " made no mistake (" + plural(r.updates, "update") + " in all).";
    else if (r.finished) text = "Stopped after " + plural(r.epoch, "epoch") + " without converging.";
    else if (r.epoch === 0) text = "Ready: no point visited yet.";
    else text = "Running: epoch " + r.epoch + ", " + r.pos + " of " + this.X.length + " points visited in it.";
    if (r.cycle) {
      text += " Cycle: the weights at the end of epoch " + r.cycle.again + " repeat those at the " +
        (r.cycle.first === 0 ? "start" : "end of epoch " + r.cycle.first) + (r.s.shuffled ? " (a repeat; with a shuffled order the run need not cycle)." : ", so the run repeats forever.");
    }
    return text;
  };

  Playground.prototype.say = function (text) {
    // Re-set the text so that assistive technology announces it even when it did not change.
    this.live.textContent = "";
    this.live.textContent = text;
  };

  /* ----- the "Try this" tasks ----- */

  /* Each task's check reads what the page itself computed (the run, gamma*, the mistake bounds)
   * and returns the sentence to show when the task is done, or null. A done task stays done.
   * check(ui, r, fresh, before): r is the current run; fresh is the record of r when r has just
   * converged (else null), before the records of the runs that converged earlier, oldest first
   * (the tasks that compare two runs look there). */
  var OWN = 8; // at most this many points: the student's own, not a preset (30 points or more)

  function zeroStart(s) { return s.w0[0] === 0 && s.w0[1] === 0 && s.b0 === 0; }

  /* The run ended without converging: stopped at the largest number of epochs, or cycling. */
  function endedUnconverged(r) { return !r.error && !r.converged && (r.finished || r.cycle !== null); }

  /* How many points of b sit elsewhere than in a, point by point; -1 when the labels differ. */
  function pointsMoved(a, b) {
    if (a.y.length !== b.y.length) return -1;
    var moved = 0;
    for (var i = 0; i < a.y.length; i++) {
      if (a.y[i] !== b.y[i]) return -1;
      if (a.X[i][0] !== b.X[i][0] || a.X[i][1] !== b.X[i][1]) moved += 1;
    }
    return moved;
  }

  var TASKS = [
    {
      key: "one-update", title: "One update is enough.",
      text: "Place points of both classes so that the perceptron converges after exactly one update. (With " +
        "the settings as the page starts, the first update is on point 0: w = y\u2080x\u2080, b = y\u2080.)",
      check: function (ui, r) {
        return r.converged && r.updates === 1 ? "converged after exactly 1 update, on point " + r.updated + "." : null;
      },
      miss: function (ui, r) {
        if (!(r.converged && ui.X.length <= OWN && zeroStart(r.s) && r.updates > 1 && r.updates <= 100)) return null;
        return plural(r.updates, "update") + ", not 1. With the page\u2019s first settings the first update makes the line " +
          "w\u00b7x + b = 0 with w = y\u2080x\u2080, b = y\u2080: place every other point strictly on its own side of that line.";
      },
    },
    {
      key: "many-updates", title: "Six points, many updates.",
      text: "With at most six points, from the zero start, make the perceptron need more than 100 updates to " +
        "converge. (Try two points of opposite classes close together and far from the origin, such as +1 at " +
        "(4, 0) and \u22121 at (4.5, 0): the line has to pass between them, and the bias gets there one step of \u03b7 at a time.)",
      check: function (ui, r) {
        return r.converged && ui.X.length <= 6 && zeroStart(r.s) && r.updates > 100
          ? "converged after " + plural(r.updates, "update") + " on " + plural(ui.X.length, "point") + "." : null;
      },
      miss: function (ui, r) {
        if (ui.X.length > 6 || !(r.converged || endedUnconverged(r))) return null;
        if (!zeroStart(r.s)) return "the run did not start from zero: set w\u2080 and b\u2080 to 0.";
        if (!r.converged) return "the run did not converge" + (ui.best === null ? ": no line separates these points." : " within the largest number of epochs.");
        if (r.updates > 100) return null;
        var bound = ui.bounds[r.s.bias];
        return plural(r.updates, "update") + ", not more than 100." + (bound ? " The mistake bound, " + fmt(bound, 4) +
          ", is an upper limit, not a prediction: a small margin allows many updates but does not force them." : "");
      },
    },
    {
      key: "no-line", title: "No line can do it.",
      text: "Place at most eight points that no line separates and run to convergence: the perceptron " +
        "never gets there, and the run stops after the largest number of epochs.",
      check: function (ui, r) {
        if (!(ui.X.length <= OWN && ui.best === null && endedUnconverged(r))) return null;
        return "no line separates these " + plural(ui.X.length, "point") + ", and the run " +
          (r.cycle ? "cycles: the weights at the end of epoch " + r.cycle.again + " repeat earlier ones."
            : "stopped after " + plural(r.epoch, "epoch") + " without converging.");
      },
      miss: function (ui, r) {
        if (!(ui.X.length <= OWN && ui.best !== null && endedUnconverged(r))) return null;
        return "the run stopped unconverged, but a line does separate these points (\u03b3* = " + fmt(ui.best.gamma, 4) +
          "): it ran out of epochs" + (r.s.bias === "none" ? " without a bias" : "") + ". Place points that no line separates.";
      },
    },
    {
      key: "pocket", title: "The pocket wins.",
      text: "The pocket keeps the weights with the fewest training errors so far. On at most eight points " +
        "that no line separates, find a run that ends with the pocket ahead of the last weights.",
      check: function (ui, r) {
        if (!(ui.X.length <= OWN && ui.best === null && endedUnconverged(r) && r.pocket.errors < r.errors)) return null;
        return "the pocket\u2019s weights make " + plural(r.pocket.errors, "error") + ", the last weights " +
          plural(r.errors, "error") + ".";
      },
      miss: function (ui, r) {
        if (!(ui.X.length <= OWN && ui.best === null && endedUnconverged(r) && r.pocket.errors >= r.errors)) return null;
        return "the last weights make " + plural(r.errors, "error") + ", as few as the pocket\u2019s: try the shuffled order, " +
          "another seed or another largest number of epochs.";
      },
    },
    {
      key: "learning-rate", title: "The learning rate does not matter.",
      text: "From the zero start, run to convergence, change the learning rate \u03b7, run again on the same " +
        "points, and compare the updates. Use powers of two (\u03b7 = 1, then 0.5 or 4): in floating point " +
        "other rates can round a score differently and, rarely, change an update.",
      check: function (ui, r, fresh, before) {
        if (!fresh || !zeroStart(r.s)) return null;
        var same = before.filter(function (old) {
          // The same settings but eta (the zero start among them), the same points, and the same
          // points updated in the same order: true in exact arithmetic, and in floating point when eta
          // is a power of 2 (short of under- or overflow); another eta can round a score differently.
          return old.key === fresh.key && old.s.eta !== fresh.s.eta && pointsMoved(old, fresh) === 0 &&
            old.path === fresh.path;
        })[0];
        if (!same) return null;
        return "\u03b7 = " + same.s.eta + " and \u03b7 = " + fresh.s.eta + " made the same " + plural(fresh.updates, "update") +
          ", on the same points in the same order; only w and b scale with \u03b7.";
      },
      miss: function (ui, r, fresh, before) {
        var old = before[before.length - 1];
        if (!fresh || !old || !zeroStart(r.s) || old.s.eta === fresh.s.eta) return null;
        if (old.key !== fresh.key) return "more than \u03b7 changed between the two runs: change only the learning rate.";
        if (pointsMoved(old, fresh) !== 0) return "the points changed between the two runs: compare two rates on the same points.";
        if (old.path !== fresh.path) return "\u03b7 = " + old.s.eta + " and \u03b7 = " + fresh.s.eta + " made different updates: " +
          "in floating point a rate that is not a power of two can round a score differently. Try \u03b7 = 0.5 or 4.";
        return null;
      },
    },
    {
      key: "margin", title: "Shrink the margin.",
      text: "Run to convergence, move one point so that \u03b3* shrinks (drag it, or G and the arrow keys), " +
        "and run again: find a move that needs more updates.",
      check: function (ui, r, fresh, before) {
        var old = before[before.length - 1];
        if (!fresh || !old || old.key !== fresh.key || old.s.eta !== fresh.s.eta) return null;
        if (pointsMoved(old, fresh) !== 1 || old.gamma === null || fresh.gamma === null) return null;
        if (!(fresh.gamma < old.gamma && fresh.updates > old.updates)) return null;
        return "\u03b3* went from " + fmt(old.gamma, 4) + " down to " + fmt(fresh.gamma, 4) + " and the updates from " +
          old.updates + " up to " + fresh.updates + ".";
      },
      miss: function (ui, r, fresh, before) {
        var old = before[before.length - 1];
        if (!fresh || !old || old.key !== fresh.key || old.s.eta !== fresh.s.eta) return null;
        var moved = pointsMoved(old, fresh);
        if (moved === 0 || moved === -1) return null;
        if (moved > 1) return plural(moved, "point") + " moved between the two runs: move exactly one.";
        if (old.gamma === null || fresh.gamma === null) return null;
        if (!(fresh.gamma < old.gamma)) return "\u03b3* went from " + fmt(old.gamma, 4) + " to " + fmt(fresh.gamma, 4) +
          ": move the point towards the other class, so that the band narrows.";
        return "\u03b3* shrank from " + fmt(old.gamma, 4) + " to " + fmt(fresh.gamma, 4) + ", but the updates went from " +
          old.updates + " to " + fresh.updates + ": a smaller margin raises the bound, not always the count. Try another move.";
      },
    },
    {
      key: "no-bias", title: "No bias, no luck.",
      text: "With the bias mode \u201cnone\u201d, place at most eight points that a line separates but no " +
        "line through the origin does, and run: it never converges.",
      check: function (ui, r) {
        if (!(r.s.bias === "none" && ui.X.length <= OWN && ui.best !== null && ui.bounds.none === null)) return null;
        if (!endedUnconverged(r)) return null;
        return "a line separates these points, none through the origin does, and the run without a bias " +
          (r.cycle ? "cycles." : "stopped after " + plural(r.epoch, "epoch") + " without converging.");
      },
      miss: function (ui, r) {
        if (!(r.s.bias === "none" && ui.X.length <= OWN && (r.converged || endedUnconverged(r)))) return null;
        if (ui.best === null) return "no line at all separates these points; the task needs one that does, just not through the origin.";
        if (ui.bounds.none !== null) return "a line through the origin separates these points, so the run converges. Put both " +
          "classes on one ray from the origin, such as +1 at (1, 1) and \u22121 at (2, 2).";
        return null;
      },
    },
  ];

  Playground.prototype.checkTasks = function () {
    var r = this.run, self = this, fresh = null, before = this.records, news = [];
    if (!r) return;
    if (r.converged && !r.recorded) {
      r.recorded = true;
      var s = r.s;
      fresh = {
        X: this.X.map(function (x) { return x.slice(); }), y: this.y.slice(), s: s, updates: r.updates,
        key: JSON.stringify([s.bias, s.rule, s.w0, s.b0, s.maxEpochs, s.shuffled, s.seed]), // all but eta
        path: r.path.join(","), gamma: this.best ? this.best.gamma : null,
      };
      this.records = before.concat([fresh]).slice(-20);
    }
    TASKS.forEach(function (task, k) {
      if (self.done[task.key]) return;
      var message = task.check(self, r, fresh, before);
      if (!message) return;
      self.done[task.key] = true;
      self.taskItems[k].li.classList.add("pp-task-done");
      self.taskItems[k].mark.textContent = "Done \u2713";
      news.push("Task " + (k + 1) + " done: " + message);
    });
    if (news.length) {
      var count = Object.keys(this.done).length;
      this.taskProgress.textContent = count + " of " + TASKS.length + " done.";
      this.taskNews.textContent = "";
      this.taskNews.textContent = news.join(" ") + " (" + count + " of " + TASKS.length + " tasks done.)";
    } else if (r.finished && !r.judged) {
      // A finished run that did no task: each task it tried says what went wrong, once per run.
      var missed = [];
      TASKS.forEach(function (task, k) {
        if (self.done[task.key] || !task.miss) return;
        var why = task.miss(self, r, fresh, before);
        if (why) missed.push("Task " + (k + 1) + " not yet: " + why);
      });
      if (missed.length) {
        this.taskNews.textContent = "";
        this.taskNews.textContent = missed.join(" ");
      }
    }
    if (r.finished) r.judged = true;
  };

  /* ----- drawing ----- */

  Playground.prototype.toPixel = function (x) {
    var size = this.size, v = this.view;
    return [(x[0] + v) / (2 * v) * size, (v - x[1]) / (2 * v) * size];
  };

  Playground.prototype.toWorld = function (px, py) {
    var size = this.size, v = this.view;
    return [px / size * 2 * v - v, v - py / size * 2 * v];
  };

  /* The part of a convex world polygon where sign (w.x + b) >= 0 (Sutherland-Hodgman, one edge). */
  function clip(poly, w, b, sign) {
    var out = [];
    function f(p) { return sign * (w[0] * p[0] + w[1] * p[1] + b); }
    for (var k = 0; k < poly.length; k++) {
      var p = poly[k], q = poly[(k + 1) % poly.length], fp = f(p), fq = f(q);
      if (fp >= 0) out.push(p);
      if ((fp >= 0) !== (fq >= 0)) {
        var t = fp / (fp - fq);
        out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
    return out;
  }

  Playground.prototype.box = function () {
    var v = this.view;
    return [[-v, -v], [v, -v], [v, v], [-v, v]];
  };

  /* The half of the view where sign (w.x + b) >= 0, as pixel corners. */
  Playground.prototype.halfPlane = function (w, b, sign) {
    return clip(this.box(), w, b, sign).map(this.toPixel, this);
  };

  /* The band |w.x + b| <= gamma inside the view, as pixel corners. */
  Playground.prototype.band = function (w, b, gamma) {
    return clip(clip(this.box(), w, b + gamma, 1), w, b - gamma, -1).map(this.toPixel, this);
  };

  /* The segment of the line w.x + b = offset inside the view, in pixels, or null. */
  Playground.prototype.linePixels = function (w, b, offset) {
    var box = this.box(), pts = [];
    for (var k = 0; k < 4; k++) {
      var p = box[k], q = box[(k + 1) % 4];
      var fp = w[0] * p[0] + w[1] * p[1] + b - offset, fq = w[0] * q[0] + w[1] * q[1] + b - offset;
      if ((fp > 0) !== (fq > 0) && fp !== fq) {
        var t = fp / (fp - fq);
        pts.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
    return pts.length >= 2 ? [this.toPixel(pts[0]), this.toPixel(pts[1])] : null;
  };

  Playground.prototype.strokeLine = function (w, b, offset, color, width, dash) {
    var seg = this.linePixels(w, b, offset), ctx = this.ctx;
    if (!seg) return;
    ctx.save();
    ctx.strokeStyle = color; ctx.lineWidth = width; ctx.setLineDash(dash || []);
    ctx.beginPath(); ctx.moveTo(seg[0][0], seg[0][1]); ctx.lineTo(seg[1][0], seg[1][1]); ctx.stroke();
    ctx.restore();
  };

  Playground.prototype.fillPoly = function (pts, color, alpha) {
    if (pts.length < 3) return;
    var ctx = this.ctx;
    ctx.save();
    ctx.globalAlpha = alpha; ctx.fillStyle = color;
    ctx.beginPath(); ctx.moveTo(pts[0][0], pts[0][1]);
    for (var k = 1; k < pts.length; k++) ctx.lineTo(pts[k][0], pts[k][1]);
    ctx.closePath(); ctx.fill();
    ctx.restore();
  };

  Playground.prototype.resize = function () {
    var css = Math.max(240, Math.min(560, Math.floor(this.canvas.parentNode.clientWidth || 520)));
    var ratio = window.devicePixelRatio || 1;
    if (this.size !== css || this.ratio !== ratio) {
      this.size = css; this.ratio = ratio;
      this.canvas.style.width = css + "px";
      this.canvas.style.height = css + "px";
      this.canvas.width = Math.round(css * ratio);
      this.canvas.height = Math.round(css * ratio);
    }
  };

  Playground.prototype.render = function () {
    this.resize();
    var ctx = this.ctx, size = this.size, v = this.view, r = this.run, self = this, k;
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, size, size);

    // Grid and axes.
    var tick = Math.pow(10, Math.floor(Math.log10(v)));
    if (v / tick < 2.5) tick /= 2;
    ctx.lineWidth = 1;
    for (var t = -Math.floor(v / tick) * tick; t <= v + 1e-9; t += tick) {
      var a = this.toPixel([t, t]);
      ctx.strokeStyle = Math.abs(t) < tick / 2 ? "#9a9a9a" : "#ececec";
      ctx.beginPath(); ctx.moveTo(a[0], 0); ctx.lineTo(a[0], size); ctx.moveTo(0, a[1]); ctx.lineTo(size, a[1]); ctx.stroke();
    }
    ctx.fillStyle = "#4a4a4a";
    ctx.font = "11px sans-serif";
    ctx.fillText(fmt(v, 3), size - 28, this.toPixel([0, 0])[1] - 4);

    var w = r ? r.w : null, b = r ? r.b : 0, hasLine = w && (w[0] !== 0 || w[1] !== 0);
    if (hasLine) {
      this.fillPoly(this.halfPlane(w, b, 1), COLORS.pos, 0.12);
      this.fillPoly(this.halfPlane(w, b, -1), COLORS.neg, 0.12);
    }
    if (this.showMargin.checked && this.best) {
      var m = this.best;
      this.fillPoly(this.band(m.w, m.b, m.gamma), COLORS.accent, 0.1);
      this.strokeLine(m.w, m.b, m.gamma, COLORS.accent, 1.2, [5, 4]);
      this.strokeLine(m.w, m.b, -m.gamma, COLORS.accent, 1.2, [5, 4]);
      this.strokeLine(m.w, m.b, 0, COLORS.accent, 2, []);
    }
    if (this.showRadius.checked && this.R) {
      var c = this.toPixel([0, 0]);
      ctx.save();
      ctx.strokeStyle = COLORS.radius; ctx.setLineDash([2, 4]); ctx.lineWidth = 1.2;
      ctx.beginPath(); ctx.arc(c[0], c[1], this.R / (2 * v) * size, 0, 2 * Math.PI); ctx.stroke();
      ctx.restore();
    }
    if (this.showPocket.checked && r && (r.pocket.w[0] !== 0 || r.pocket.w[1] !== 0)) {
      this.strokeLine(r.pocket.w, r.pocket.b, 0, "#7a4f9a", 2, [8, 3, 2, 3]);
    }
    if (hasLine) {
      this.strokeLine(w, b, 0, COLORS.boundary, 2.2, []);
      // The normal vector w, drawn from the boundary point nearest the origin, a fixed length.
      var n2 = w[0] * w[0] + w[1] * w[1], foot = [-b * w[0] / n2, -b * w[1] / n2];
      var len = 0.2 * v / Math.sqrt(n2), tip = [foot[0] + len * w[0], foot[1] + len * w[1]];
      var p0 = this.toPixel(foot), p1 = this.toPixel(tip);
      ctx.save();
      ctx.strokeStyle = COLORS.boundary; ctx.fillStyle = COLORS.boundary; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(p0[0], p0[1]); ctx.lineTo(p1[0], p1[1]); ctx.stroke();
      var ang = Math.atan2(p1[1] - p0[1], p1[0] - p0[0]);
      ctx.beginPath(); ctx.moveTo(p1[0], p1[1]);
      ctx.lineTo(p1[0] - 9 * Math.cos(ang - 0.4), p1[1] - 9 * Math.sin(ang - 0.4));
      ctx.lineTo(p1[0] - 9 * Math.cos(ang + 0.4), p1[1] - 9 * Math.sin(ang + 0.4));
      ctx.closePath(); ctx.fill();
      ctx.font = "italic 14px serif";
      ctx.fillText("w", p1[0] + 6, p1[1] - 6);
      ctx.restore();
    }

    // Points: +1 blue discs, -1 vermillion squares, white edges (the book's markers).
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#ffffff";
    for (k = 0; k < this.points.length; k++) {
      var p = this.toPixel(this.points[k].x);
      if (this.points[k].y > 0) {
        ctx.fillStyle = COLORS.pos;
        ctx.beginPath(); ctx.arc(p[0], p[1], 5, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      } else {
        ctx.fillStyle = COLORS.neg;
        ctx.fillRect(p[0] - 4.5, p[1] - 4.5, 9, 9); ctx.strokeRect(p[0] - 4.5, p[1] - 4.5, 9, 9);
      }
    }
    function ring(index, radiusPx, width, dash) {
      if (index < 0 || index >= self.points.length) return;
      var q = self.toPixel(self.points[index].x);
      ctx.save();
      ctx.strokeStyle = COLORS.boundary; ctx.lineWidth = width; ctx.setLineDash(dash);
      ctx.beginPath(); ctx.arc(q[0], q[1], radiusPx, 0, 2 * Math.PI); ctx.stroke();
      ctx.restore();
    }
    if (r) {
      ring(r.updated, 12, 2.5, []);      // the point that triggered the last update
      ring(r.visited, 8.5, 1.5, [3, 2]);  // the point visited last
    }
    if (this.grabbed >= 0) ring(this.grabbed, 15, 1.5, [1, 3]);

    // The keyboard cursor, while the plot has the focus.
    if (document.activeElement === this.canvas) {
      var cp = this.toPixel(this.cursor);
      ctx.save();
      ctx.strokeStyle = "#000000"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(cp[0] - 9, cp[1]); ctx.lineTo(cp[0] + 9, cp[1]);
      ctx.moveTo(cp[0], cp[1] - 9); ctx.lineTo(cp[0], cp[1] + 9); ctx.stroke();
      ctx.restore();
    }
    this.renderNumbers();
  };

  Playground.prototype.renderNumbers = function () {
    var r = this.run, out = this.out, s = this.settings();
    out.updates.textContent = r ? String(r.updates) : "0";
    out.epoch.textContent = r ? String(r.epoch) : "0";
    out.errors.textContent = r ? r.errors + " of " + this.X.length : "\u2014";
    out.w.textContent = r ? "w = (" + fmt(r.w[0], 6) + ", " + fmt(r.w[1], 6) + "), b = " + fmt(r.b, 6) : "\u2014";
    out.radius.textContent = this.R === null ? "\u2014" : fmt(this.R, 6);
    out.gamma.textContent = this.best ? fmt(this.best.gamma, 6) : (this.X && this.X.length ? "no line separates the classes" : "\u2014");
    var bound = s.error ? undefined : this.bounds[s.bias], text;
    if (bound === undefined) text = "\u2014";
    else if (bound === null) text = s.bias === "none" ? "none: no line through the origin separates the classes" : "none: no line separates the classes";
    else {
      text = fmt(bound, 6) + " (bias \"" + s.bias + "\")";
      if (r) text = plural(r.updates, "update") + " so far, bound " + text;
      if (s.w0[0] !== 0 || s.w0[1] !== 0 || s.b0 !== 0) text += "; it is proved for the zero start only";
    }
    out.bound.textContent = text;
    out.pocket.textContent = r ? plural(r.pocket.errors, "error") + " at w = (" + fmt(r.pocket.w[0], 6) + ", " + fmt(r.pocket.w[1], 6) +
      "), b = " + fmt(r.pocket.b, 6) : "\u2014";
    out.state.textContent = this.stateText();
    this.code.value = this.pythonCode(s);
    this.checkTasks();
  };

  Playground.prototype.pythonCode = function (s) {
    if (s.error) return "";
    var X = JSON.stringify(this.X || []), y = JSON.stringify(this.y || []);
    return "import perceptron as pc\nX = " + X + "\ny = " + y + "\nrun = pc.train(X, y, eta=" + s.eta + ", bias=\"" + s.bias +
      "\", w0=[" + s.w0.join(", ") + "], b0=" + s.b0 + ", max_epochs=" + s.maxEpochs +
      (s.rule === "sign" ? ", rule=\"sign\"" : "") + (s.shuffled ? ", shuffle=True, seed=" + s.seed : "") + ", record=True)\nprint(run.mistakes, run.epochs, run.converged, run.w, run.b)";
  };

  /* ----- pointer and keyboard ----- */

  Playground.prototype.eventWorld = function (e) {
    var rect = this.canvas.getBoundingClientRect();
    return this.toWorld(e.clientX - rect.left - this.canvas.clientLeft, e.clientY - rect.top - this.canvas.clientTop);
  };

  Playground.prototype.bindPointer = function () {
    var self = this, drag = null;
    this.canvas.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      // A finger is wider than a cursor: it reaches farther, most of all to delete (adding next to a point
      // must stay possible: 12 px is 0.34 at a phone's 358 px canvas).
      var touch = e.pointerType === "touch", px = 1 / self.size * 2 * self.view, x = self.eventWorld(e);
      var pick = self.nearest(x, (touch ? 12 : 9) * px);
      if (self.tapDelete.checked) {
        pick = self.nearest(x, (touch ? 20 : 9) * px);
        if (pick >= 0) self.removePoint(pick);
        else self.say("No point there to delete: tap on a point.");
        return;
      }
      if (pick >= 0) {
        drag = { index: pick, moved: false };
        self.canvas.setPointerCapture(e.pointerId);
      } else {
        var label = self.classPos.checked ? 1 : -1;
        self.addPoint(x, e.shiftKey ? -label : label);
      }
    });
    this.canvas.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var x = self.eventWorld(e);
      if (!drag.moved) { self.undoStack.push(self.snapshot()); drag.moved = true; }
      self.points[drag.index].x = [self.snap(x[0]), self.snap(x[1])];
      self.dataChanged();
    });
    function end() {
      if (drag && drag.moved) {
        var p = self.points[drag.index];
        self.say("Moved point " + drag.index + " to (" + fmt(p.x[0], 6) + ", " + fmt(p.x[1], 6) + ").");
      }
      drag = null;
    }
    this.canvas.addEventListener("pointerup", end);
    this.canvas.addEventListener("pointercancel", end);
    this.canvas.addEventListener("dblclick", function (e) {
      self.removePoint(self.nearest(self.eventWorld(e), 9 / self.size * 2 * self.view));
    });
  };

  Playground.prototype.bindKeys = function () {
    var self = this;
    this.canvas.addEventListener("keydown", function (e) {
      var step = (e.shiftKey ? 0.2 : 0.05) * self.view, moves = {
        ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step],
      };
      var key = e.key, handled = true;
      if (moves[key]) {
        var c = self.cursor;
        c[0] = Math.max(-self.view, Math.min(self.view, self.snap(c[0] + moves[key][0])));
        c[1] = Math.max(-self.view, Math.min(self.view, self.snap(c[1] + moves[key][1])));
        if (self.grabbed >= 0) {
          self.points[self.grabbed].x = [c[0], c[1]];
          self.dataChanged();
        } else {
          self.render();
        }
        self.say("Cursor at (" + fmt(c[0], 6) + ", " + fmt(c[1], 6) + ")" + (self.grabbed >= 0 ? ", moving point " + self.grabbed : "") + ".");
      } else if (key === "+" || key === "=" || key === "p" || key === "P") {
        self.addPoint(self.cursor, 1);
      } else if (key === "-" || key === "n" || key === "N") {
        self.addPoint(self.cursor, -1);
      } else if (key === "Enter" || key === " ") {
        self.addPoint(self.cursor, self.classPos.checked ? 1 : -1);
      } else if (key === "Delete" || key === "Backspace") {
        self.grabbed = -1;
        self.removePoint(self.nearest(self.cursor));
      } else if (key === "g" || key === "G") {
        if (self.grabbed >= 0) {
          self.say("Dropped point " + self.grabbed + ".");
          self.grabbed = -1;
          self.render();
        } else {
          var k = self.nearest(self.cursor);
          if (k >= 0) {
            self.undoStack.push(self.snapshot());
            self.grabbed = k;
            self.cursor = self.points[k].x.slice();
            self.render();
            self.say("Picked up point " + k + "; arrow keys move it, G drops it.");
          }
        }
      } else if (key === "u" || key === "U" || ((e.ctrlKey || e.metaKey) && (key === "z" || key === "Z"))) {
        self.grabbed = -1;
        self.undo();
      } else if (key === "Escape" && self.grabbed >= 0) {
        self.grabbed = -1;
        self.render();
      } else {
        handled = false;
      }
      if (handled) e.preventDefault();
    });
  };

  function start() {
    var root = document.getElementById("perceptron-playground");
    if (!root || root.dataset.started) return;
    root.dataset.started = "1";
    var loaded = PRESETS_URL ? fetch(PRESETS_URL).then(function (r) { return r.ok ? r.json() : []; })
      : Promise.resolve([]);
    loaded.catch(function () { return []; }).then(function (presets) {
      PRESETS = presets;
      build(root);
    });
  }

  function build(root) {
    var ui = new Playground(root);
    if (PRESETS.length) {
      ui.preset.value = "chapter2";
      ui.loadPreset("chapter2");
      ui.undoStack = [];
      ui.say("");
    }
    window.addEventListener("resize", function () { ui.render(); });
    engine.ui = ui;
  }

  if (typeof document === "undefined") return; // the engine alone (e.g. in Node)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
