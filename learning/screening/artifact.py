"""Building the screening artifact (``assistant/screening/artifact.py``) from the corpus."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from assistant.models import store
from assistant.package.artifacts import package_version
from assistant.screening import answerability, language
from assistant.screening.artifact import SUBDIRECTORY, Screening, schema
from assistant.screening.artifact import directory as artifact_directory
from assistant.screening.model import ScreeningModel
from learning import corpora
from learning.screening import answerability as answerability_training
from learning.screening import corpus, training
from learning.screening import topics as topics_training

# Bump when training changes in a way the inputs do not show (a new hyperparameter, say).
TRAINING_VERSION = 4  # 4: answerability learns only from questions it is asked about (English)


def fingerprint() -> str:
    """What the artifact is built from: corpus, sample package, schema and training version."""
    slugs = ["sample", *sorted({s.package for s in corpora.sets("questions")})]
    parts = (
        corpus.fingerprint(),
        *(package_version(corpora.package_dir(slug)) for slug in slugs),
        schema(),
        f"training={TRAINING_VERSION}",
    )
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def build() -> Screening:
    """Train the models from every package's labelled questions (deterministic: fixed seeds and
    data order): the intent classifier and the answerability weights learn across packages,
    each question measured against its own package; the topic classifier learns the sample's
    artifact topics (the only corpus that labels them)."""
    examples = corpus.load_all()
    scores = training.out_of_fold(examples)
    intent = training.train(examples, scores=scores)
    packs = answerability_training.packs(examples)
    measured = answerability_training.measure(examples, packs)
    answerability = answerability_training.choose_covers(
        answerability_training.train(measured), examples, scores, intent.thresholds, packs
    )
    return Screening(intent, answerability, fingerprint(), topics_training.train(examples))


def write(screening: Screening, directory: Path | None = None) -> Path:
    """Write the artifact into ``directory``; by default ``AICD_MODEL_DIR/screening``, with its
    manifest entry (another directory is a copy for a test or a comparison, not recorded)."""
    recorded = directory is None
    directory = directory or artifact_directory()
    meta = dict(
        screening.intent.meta,
        fingerprint=screening.fingerprint,
        schema=schema(),
        answerability={
            "features": list(answerability.FEATURES),
            "weights": list(screening.answerability.weights),
            "threshold": screening.answerability.threshold,
            "covers": screening.answerability.covers,
        },
    )
    ScreeningModel(
        classes=screening.intent.classes,
        coef=screening.intent.coef,
        intercept=screening.intent.intercept,
        idf_words=screening.intent.idf_words,
        idf_chars=screening.intent.idf_chars,
        thresholds=screening.intent.thresholds,
        meta=meta,
    ).save(directory)
    screening.topics.save(directory)
    write_language_profiles(directory)
    if recorded:
        files = sorted(f"{SUBDIRECTORY}/{p.name}" for p in directory.iterdir() if p.is_file())
        store.record("screening", files, schema=schema(), data=screening.fingerprint)
    return directory


#: The languages whose profiles the screening artifact carries (assistant/screening/language.py).
LANGUAGES = ("en", "fr", "de", "es", "pt", "it", "nl", "pl")
PROFILE_WORDS = 3000


def write_language_profiles(directory: Path) -> Path:
    """Each language's most frequent words and their Zipf frequencies, from wordfreq's data."""
    from wordfreq import top_n_list, zipf_frequency

    profiles = {
        lang: {w: round(zipf_frequency(w, lang), 2) for w in top_n_list(lang, PROFILE_WORDS)}
        for lang in LANGUAGES
    }
    path = directory / language.PROFILE_FILE
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"source": "wordfreq top_n_list", "languages": profiles}, ensure_ascii=False),
        encoding="utf-8",
    )
    return path
