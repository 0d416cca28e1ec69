"""When the camera model is sure of a box: one threshold per class, set by the validation
boxes, and the figures measured with them (train.py, the training report). Numpy only, so
the tests check the rule without the trainer.

A box is sure when its best class's probability reaches that class's threshold: just above
the surest wrong reading of that class among the validation boxes (training designs only),
kept within BOUNDS. One threshold for every class was the surest wrong reading of them all,
so a single hard box (a ten whose pip a fingertip hid, read as a nine) could make every
card of every suit unsure; per class, it only raises the nine of hearts'.
"""

import numpy as np

BOUNDS = (0.8, 0.9999)
# A training run is exported only when this share of the validation's cards is read right
# and sure: a run below it fails loudly instead of replacing a better model.
SURE_FLOOR = 0.85


def thresholds_from(probs, labels, bounds=BOUNDS):
    """Per class, the lowest threshold (to 0.0001) at which no validation box read as that
    class is wrong and sure, within bounds; the lower bound where none is wrong."""
    best = probs.argmax(1)
    top = probs.max(1)
    wrong = best != labels
    out = []
    for c in range(probs.shape[1]):
        mine = wrong & (best == c)
        t = np.floor(float(top[mine].max()) * 10000 + 1) / 10000 if mine.any() else 0.0
        out.append(round(float(min(max(t, bounds[0]), bounds[1])), 4))
    return out


def sure(probs, thresholds):
    """Which boxes are sure: their best class's probability at its threshold or above."""
    return probs.max(1) >= np.asarray(thresholds)[probs.argmax(1)]


def scores(probs, labels, thresholds, none):
    """The figures of a set of boxes (none: the class index of "no card")."""
    best = probs.argmax(1)
    ok = sure(probs, thresholds)
    cards = labels != none

    def share(flags):  # of the boxes that hold a card (none in a set of foreign designs)
        return float(flags[cards].mean()) if cards.any() else None

    return {
        "boxes": int(len(labels)),
        "top1": float((best == labels).mean()),
        "card_correct_sure": share((best == labels) & ok),
        "card_unsure": share(~ok),
        "card_wrong_sure": int(((best != labels) & ok & cards).sum()),
        "none_taken_for_card_sure": int(((best != none) & ok & ~cards).sum()),
    }


def refusal(validation):
    """Why a run's model must not be exported (its validation figures), or None."""
    if validation["card_wrong_sure"] or validation["none_taken_for_card_sure"]:
        return "validation boxes read wrong and sure: %r" % validation
    if validation["card_correct_sure"] < SURE_FLOOR:
        return ("only %.2f%% of the validation's cards read right and sure (at least %g%% "
                "wanted): %r" % (100 * validation["card_correct_sure"], 100 * SURE_FLOOR,
                                 validation))
    return None


def index_reading(corners, none):
    """The index reader's reading of boxes from their two corners' probabilities (n, 2, K):
    (n, K). A corner whose likeliest class is `none` shows no index (a one-corner design,
    a finger on it) and is left out. Two corners that show one are two prints of the same
    index seen apart, so each is evidence of its own: their probabilities are multiplied
    class by class and scaled to sum to one (two corners that disagree leave neither card
    sure; two that agree at 0.9 give a surer reading than either). One: that corner's.
    Neither: both averaged (then "none" leads). web/camread.js indexReading() computes the
    same. The agreement threshold is set on readings made this way (joint_thresholds.py)."""
    corners = np.asarray(corners, np.float64)
    shows = corners.argmax(2) != none  # (n, 2)
    both = shows.all(1)
    count = shows.sum(1, keepdims=True).astype(np.float64)
    weights = np.where(count > 0, shows / np.maximum(count, 1), 0.5)
    out = (corners * weights[..., None]).sum(1)
    if both.any():
        joint = np.maximum(corners[both, 0], FLOOR) * np.maximum(corners[both, 1], FLOOR)
        out[both] = joint / joint.sum(1, keepdims=True)
    return out


# A corner's probability below this counts as this in index_reading()'s product: two corners
# each sure of another card (a softmax in float32 reaches 0) would otherwise leave every
# class at zero.
FLOOR = 1e-6


def agree(names, index_probs, index_thresholds, classes):
    """The joint rule (docs/web.md, "Camera"): a box read as a card by the whole-card
    networks stays so only when the index reading's (index_reading()) likeliest card is the
    same and its probability reaches that card's threshold (index.json's "agree",
    agreement_thresholds()); else it is "?", not sure. Other names ("?", "none", "!" and a played
    card) are kept. web/camera.js sureNames() applies the same."""
    best = index_probs.argmax(1)
    top = index_probs.max(1)
    out = []
    for name, b, t in zip(names, best, top):
        if name in classes and name != "none":
            if classes[b] != name or t < index_thresholds[b]:
                name = "?"
        out.append(name)
    return out


AGREE_BOUNDS = (0.5, 0.9999)


def agreement_thresholds(names, index_probs, labels, classes, bounds=AGREE_BOUNDS):
    """The joint rule's thresholds (docs/web.md, "Camera"), from held-out boxes: names, the
    whole-card networks' sure readings (a card, or "?"); index_probs, the index readings
    (index_reading()); labels, each box's true card. The error that matters is both readers
    naming the same wrong card, so the threshold is just above the highest index probability
    among boxes where the whole-card reading is sure, the index's likeliest card equals it,
    and it is wrong: one threshold for every card (the held-out boxes are too few to trust
    a class without such an error with a lower one), within bounds. Returns (the
    thresholds a class, what they were set from)."""
    best = np.asarray(index_probs).argmax(1)
    top = np.asarray(index_probs).max(1)
    high, count, agreed = 0.0, 0, 0
    for name, b, t, truth in zip(names, best, top, labels):
        if name in classes and name != "none" and classes[b] == name:
            agreed += 1
            if name != truth:
                count += 1
                high = max(high, float(t))
    t = np.floor(high * 10000 + 1) / 10000 if count else 0.0
    t = round(float(min(max(t, bounds[0]), bounds[1])), 4)
    return [t] * len(classes), {"agreed": agreed, "agreed_wrong": count,
                                "highest_wrong": round(high, 6)}
