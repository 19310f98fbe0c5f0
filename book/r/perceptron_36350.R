# The perceptron of the CMU 36-350 notes (Fall 2009), minimally repaired so that it runs.
# Every change to the printed code is marked "REPAIR"; see book/r_perceptron.md for the list.

# Euclidean norm of every row of a matrix (left as an exercise in the notes).
euclidean.norm = function(x) {
  sqrt(rowSums(x^2))
}

classify.linear = function(x,w,b) {
  distance.from.plane = function(z,w,b) { sum(z*w) + b }
  distances = apply(x, 1, distance.from.plane, w = w, b = b)  # REPAIR: pass w and b
  return(ifelse(distances < 0, -1, +1))
}

perceptron = function(x, y, learning.rate=1) {
  w = vector(length = ncol(x))
  b = 0
  k = 0
  R = max(euclidean.norm(x))
  made.mistake = TRUE
  while (made.mistake) {
    made.mistake=FALSE
    for (i in 1:nrow(x)) {
      if (y[i] != classify.linear(x[i,,drop=FALSE],w,b)) {  # REPAIR: row i, kept a matrix
        w <- w + learning.rate * y[i]*x[i,]                  # REPAIR: row i, not column i
        b <- b + learning.rate * y[i]*R^2
        k <- k+1
        made.mistake=TRUE
      }
    }
  }
  return(list(w=w,b=b,mistakes.made=k))                      # REPAIR: return one list
}
