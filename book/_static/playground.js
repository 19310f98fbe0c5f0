/* The perceptron playground: Rosenblatt's rule on the reader's own points, in the page.
 *
 * Part 1 is the engine, exposed as window.perceptronPlayground. It makes exactly the updates of
 * the Python package's perceptron.train, bit for bit: JavaScript numbers are IEEE doubles, and
 * every operation below is the one the package performs, in the same order and rounded once:
 *   score  = ((x_1 w_1 + x_2 w_2) + ...) + b     (perceptron.training.sequential_dot, then + b)
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

  /* R = max_i ||x_i||, as perceptron.training.bias_scale computes it for bias="radius". */
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
    if (rule === "sign") return (score >= 0 ? 1 : -1) !== yi; // sgn(0) = +1 (36-350 notes)
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
      order: o.order || null,
    };
  }

  /* perceptron.train(X, y, eta=..., bias=..., w0=..., b0=..., max_epochs=..., rule=...,
   * record=True), visiting the points in the given order (0, 1, 2, ... when none is given). */
  function train(X, y, options) {
    var o = checkOptions(X, y, options);
    var n = X.length, d = o.d, w = o.w0, b = o.b0, eta = o.eta, stepB = o.stepB, rule = o.rule;
    var history = [], mistakes = 0, epoch = 0, clean = false, j;
    while (epoch < o.maxEpochs && !clean) {
      epoch += 1;
      clean = true;
      var order = typeof o.order === "function" ? o.order(epoch) : null;
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

  /* Solve the small dense system M z = r by Gaussian elimination with partial pivoting;
   * null when M is (numerically) singular. */
  function solve(M, r) {
    var m = r.length, A = M.map(function (row, i) { return row.concat([r[i]]); }), i, j, k;
    var scale = 0;
    for (i = 0; i < m; i++) for (j = 0; j < m; j++) scale = Math.max(scale, Math.abs(A[i][j]));
    for (k = 0; k < m; k++) {
      var p = k;
      for (i = k + 1; i < m; i++) if (Math.abs(A[i][k]) > Math.abs(A[p][k])) p = i;
      if (!(Math.abs(A[p][k]) > 1e-14 * scale)) return null;
      var t = A[k]; A[k] = A[p]; A[p] = t;
      for (i = k + 1; i < m; i++) {
        var f = A[i][k] / A[k][k];
        for (j = k; j <= m; j++) A[i][j] -= f * A[k][j];
      }
    }
    var z = new Array(m);
    for (i = m - 1; i >= 0; i--) {
      var s = A[i][m];
      for (j = i + 1; j < m; j++) s -= A[i][j] * z[j];
      z[i] = s / A[i][i];
    }
    return z;
  }

  /* The point of smallest norm in the convex hull of a set of "atoms", by Wolfe's algorithm
   * (P. Wolfe, "Finding the nearest point in a polytope", Math. Programming 11, 1976): a finite
   * active-set method whose iterate is always the exact affine minimiser of a small affinely
   * independent "corral" of atoms. The atoms are given through a linear minimisation oracle:
   * lmo(x) returns the atom a minimising <x, a>. Returns the nearest point. */
  function nearestPoint(lmo, start, size2) {
    var corral = [start.slice()], lam = [1], x = start.slice(), outer, inner;
    var tol = 1e-13 * size2;
    for (outer = 0; outer < 500; outer++) {
      var a = lmo(x);
      if (dot(x, x) - dot(x, a) <= tol) break; // x is optimal (no atom improves on it)
      var present = corral.some(function (c) { return c.every(function (v, j) { return v === a[j]; }); });
      if (present) break;
      corral.push(a.slice());
      lam.push(0);
      for (inner = 0; inner < 50; inner++) {
        // Affine minimiser of the corral: min ||sum alpha_k c_k|| with sum alpha_k = 1.
        var m = corral.length, G = [], i, k;
        for (i = 0; i < m; i++) {
          G.push([]);
          for (k = 0; k < m; k++) G[i].push(dot(corral[i], corral[k]));
          G[i].push(1);
        }
        G.push(new Array(m).fill(1).concat([0]));
        var rhs = new Array(m).fill(0).concat([1]);
        var sol = solve(G, rhs);
        if (sol === null) { corral.pop(); lam.pop(); return combine(corral, lam); }
        var alpha = sol.slice(0, m);
        if (alpha.every(function (v) { return v > 1e-15; })) { lam = alpha; break; }
        // Move from lam towards alpha until a coefficient reaches zero; drop that atom.
        var theta = 1;
        for (k = 0; k < m; k++) if (alpha[k] <= 1e-15) theta = Math.min(theta, lam[k] / (lam[k] - alpha[k]));
        var keepC = [], keepL = [];
        for (k = 0; k < m; k++) {
          var l = theta * alpha[k] + (1 - theta) * lam[k];
          if (l > 1e-15) { keepC.push(corral[k]); keepL.push(l); }
        }
        corral = keepC; lam = keepL;
        if (corral.length === 0) return x;
      }
      x = combine(corral, lam);
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
    var x = nearestPoint(function (dir) { return Z[argminDot(Z, dir)]; }, Z[0], 1);
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
    var x = nearestPoint(lmo, start, 4);
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
  };
  window.perceptronPlayground = engine;

  /* ---- UI follows ---- */
})();
