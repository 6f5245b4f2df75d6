// @ts-check
// The table's sounds, made with Web Audio (no files): a tile placed, your turn, a chicken foot and
// the round's end. On by default at a moderate volume; the header's button mutes them, remembered in
// this browser. No sound, and no AudioContext, before the player has interacted with the page (a
// click, a tap or a key of theirs): a page that plays by itself is a page people close.

import { t } from "./i18n.js";

const MUTED = "cf-sound"; // "off": muted
const INTERACTIONS = ["pointerdown", "keydown"];
const VOLUME = 0.25; // of full scale, for the loudest tone

// Each sound as notes: [start s, pitch Hz, length s, wave].
/** @typedef {"placed" | "turn" | "foot" | "round"} Sound */
/** @type {Record<Sound, [number, number, number, OscillatorType][]>} */
const SOUNDS = {
  placed: [[0, 180, 0.09, "triangle"], [0.02, 120, 0.07, "sine"]],
  turn: [[0, 660, 0.18, "sine"], [0.14, 880, 0.2, "sine"]],
  foot: [[0, 523, 0.12, "square"], [0.1, 659, 0.12, "square"], [0.2, 784, 0.25, "square"]],
  round: [[0, 784, 0.2, "sine"], [0.16, 659, 0.2, "sine"], [0.32, 523, 0.4, "sine"]],
};

// The button's face: a speaker with sound waves, or struck through.
const SPEAKER = '<path d="M4 9h4l5-4v14l-5-4H4z" class="fill"/>';
const ICONS = {
  on: `${SPEAKER}<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12"/>`,
  off: `${SPEAKER}<path d="M16.5 9.5l5 5M21.5 9.5l-5 5"/>`,
};

export class Sounds {
  /** @param {HTMLButtonElement} button */
  constructor(button) {
    this.button = button;
    this.muted = localStorage.getItem(MUTED) === "off";
    /** @type {AudioContext | null} */
    this.audio = null;
    /** @type {string | null} what the button last showed */
    this.shown = null;
    this.heard = false; // the player has interacted with the page
    /** @param {Event} e */
    const first = (e) => {
      if (!e.isTrusted) return;
      this.heard = true;
      for (const kind of INTERACTIONS) removeEventListener(kind, first, true);
    };
    for (const kind of INTERACTIONS) addEventListener(kind, first, true);
    button.addEventListener("click", () => {
      this.muted = !this.muted;
      localStorage.setItem(MUTED, this.muted ? "off" : "on");
      this.render();
      this.play("placed"); // unmuting says so out loud
    });
    this.render();
  }

  // The button as the sounds are, in the page's language (redrawn only when that changes: the table
  // renders on every state, and a button redrawn under a click can lose it).
  render() {
    const button = this.button;
    const label = t("sound.toggle");
    const shown = `${this.muted}/${label}`;
    if (this.shown === shown) return;
    this.shown = shown;
    button.hidden = false;
    button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${ICONS[this.muted ? "off" : "on"]}</svg>`;
    button.setAttribute("aria-pressed", String(!this.muted));
    button.setAttribute("aria-label", label);
    button.title = t(this.muted ? "sound.off" : "sound.on");
  }

  /**
   * `delay`: seconds from now (a turn's sound after the tile that gave it).
   * @param {Sound} name
   * @param {number} [delay]
   */
  play(name, delay = 0) {
    if (this.muted || !this.heard) return;
    this.audio ??= new AudioContext();
    const audio = this.audio;
    audio.resume();
    const now = audio.currentTime + delay;
    for (const [start, pitch, length, wave] of SOUNDS[name]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = wave;
      tone.frequency.value = pitch;
      const peak = wave === "square" ? VOLUME / 4 : VOLUME; // a square wave sounds louder
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(peak, now + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.02);
    }
  }
}
