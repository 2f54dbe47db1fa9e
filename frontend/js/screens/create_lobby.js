// New lobby: game, seat count, the engine's options (from options_schema), privacy.
import { html, useEffect, useState } from "../lib.js";
import { post } from "../api.js";
import { navigate } from "../router.js";
import { has, t } from "../i18n.js";
import { GAMES_WITH_RULES, Notice, Page, Spinner, gameName } from "../ui.js";
import { useGames } from "./common.js";
import { gameInfo } from "../games/registry.js";
import { timeControlText } from "../match/time_control.js";

/** A field error from a DRF validation answer, as one readable line. */
function fieldErrors(err) {
  if (!err || !err.fields) return "";
  return Object.entries(err.fields)
    .map(([k, v]) => `${k === "non_field_errors" ? "" : (has(`field.${k}`) ? t(`field.${k}`) : k) + ": "}${[].concat(v).join(" ")}`)
    .join(" ");
}

function defaults(game) {
  const out = {};
  for (const [k, spec] of Object.entries(game.options_schema || {})) if (!spec.test_hook) out[k] = spec.default;
  return out;
}

function OptionField({ name, spec, value, onChange }) {
  const id = `opt-${name}`;
  const help = spec.help && html`<small id=${id + "-help"} class="hint">${spec.help}</small>`;
  const described = spec.help ? id + "-help" : undefined;
  if (spec.type === "bool") {
    return html`<div class="field field-check">
      <label><input id=${id} type="checkbox" checked=${!!value} aria-describedby=${described}
        onChange=${(e) => onChange(e.target.checked)} /> <span>${spec.label || name}</span></label>${help}</div>`;
  }
  if (spec.type === "int") {
    return html`<div class="field"><label for=${id}>${spec.label || name}</label>
      <input id=${id} type="number" inputmode="numeric" min=${spec.min} max=${spec.max} value=${value} aria-describedby=${described}
        onInput=${(e) => onChange(e.target.value === "" ? "" : Number(e.target.value))} />${help}</div>`;
  }
  if (spec.type === "choice") {
    return html`<div class="field"><label for=${id}>${spec.label || name}</label>
      <select id=${id} value=${value} aria-describedby=${described} onChange=${(e) => onChange(e.target.value)}>
        ${(spec.choices || []).map((c) => {
          const [v, label] = Array.isArray(c) ? c : [c, c];
          return html`<option value=${v}>${label}</option>`;
        })}
      </select>${help}</div>`;
  }
  // "list" options: comma-separated text.
  return html`<div class="field"><label for=${id}>${spec.label || name}</label>
    <input id=${id} value=${(value || []).join(", ")} aria-describedby=${described}
      onInput=${(e) => onChange(e.target.value.split(",").map((x) => x.trim()).filter(Boolean))} />${help}</div>`;
}

// ---- time control: presets, or custom fields in minutes/seconds/hours (the server's bounds: clock.py BOUNDS) ----
const PRESETS = [
  { id: "none", tc: { kind: "none" } },
  { id: "blitz", tc: { kind: "realtime", bank_s: 180, increment_s: 10 } },
  { id: "rapid", tc: { kind: "realtime", bank_s: 600, increment_s: 20 } },
  { id: "day", tc: { kind: "turn_based", per_move_s: 86400 } },
  { id: "custom", tc: null },
];

/** The custom fields in the units people think in (minutes, seconds, hours), as the server's seconds. */
function customControl(kind, f) {
  const whole = (v) => (v === "" || v == null ? v : Math.round(Number(v)));
  if (kind === "realtime") return { kind, bank_s: whole(f.bank_min * 60), increment_s: whole(f.inc_s) };
  return { kind, per_move_s: whole(f.move_h * 3600) };
}

/** Our own words for a custom value out of the server's bounds (clock.py BOUNDS); the server checks again. */
function customErrors(tc) {
  const out = {};
  const bad = (v, lo, hi) => typeof v !== "number" || !Number.isFinite(v) || v < lo || v > hi;
  if (tc.kind === "realtime") {
    if (bad(tc.bank_s, 60, 10800)) out.bank_s = t("clock.err_bank");
    if (bad(tc.increment_s, 0, 600)) out.increment_s = t("clock.err_inc");
  } else if (tc.kind === "turn_based" && bad(tc.per_move_s, 1800, 1209600)) out.per_move_s = t("clock.err_move");
  return out;
}

/** The server's `fields.time_control` ({field: [sentence]} or [sentence]) as {field: sentence}. */
function serverErrors(fields) {
  const tc = fields && fields.time_control;
  if (!tc) return null;
  if (Array.isArray(tc) || typeof tc !== "object") return { kind: [].concat(tc).join(" ") };
  return Object.fromEntries(Object.entries(tc).map(([k, v]) => [k, [].concat(v).join(" ")]));
}

function NumberField({ id, label, value, onInput, error, step }) {
  return html`<div class="field"><label for=${id}>${label}</label>
    <input id=${id} type="number" inputmode="decimal" step=${step || 1} value=${value} data-testid=${id}
      aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? id + "-err" : undefined}
      onInput=${(e) => onInput(e.target.value === "" ? "" : Number(e.target.value))} />
    ${error && html`<small id=${id + "-err"} class="field-error" role="alert">${error}</small>`}</div>`;
}

/** Presets as big radio tiles; "custom" opens realtime/turn-based fields. `errors` come from either check. */
function TimeControlPicker({ choice, setChoice, custom, setCustom, errors }) {
  const e = errors || {};
  return html`<fieldset class="tc-pick" data-testid="time-controls"><legend>${t("clock.tc_legend")}</legend>
    <div class="tc-options">
      ${PRESETS.map((p) => html`<label class=${"tc-choice" + (choice === p.id ? " on" : "")} data-tc=${p.id}>
        <input type="radio" name="tc" value=${p.id} checked=${choice === p.id} onChange=${() => setChoice(p.id)} />
        <span class="tc-name">${t(`clock.preset_${p.id}`)}</span>
        <span class="muted">${p.tc ? timeControlText(p.tc) : t("clock.preset_custom_hint")}</span>
      </label>`)}
    </div>
    ${choice === "custom" && html`<div class="tc-custom">
      <div class="field"><label for="tc-kind">${t("clock.kind")}</label>
        <select id="tc-kind" value=${custom.kind} onChange=${(ev) => setCustom({ ...custom, kind: ev.target.value })}>
          <option value="realtime">${t("clock.kind_realtime")}</option>
          <option value="turn_based">${t("clock.kind_turn")}</option>
        </select>${e.kind && html`<small class="field-error" role="alert">${e.kind}</small>`}</div>
      ${custom.kind === "realtime" ? html`
        <${NumberField} id="tc-bank" label=${t("clock.bank_min")} value=${custom.bank_min} error=${e.bank_s}
          onInput=${(v) => setCustom({ ...custom, bank_min: v })} />
        <${NumberField} id="tc-inc" label=${t("clock.inc_s")} value=${custom.inc_s} error=${e.increment_s}
          onInput=${(v) => setCustom({ ...custom, inc_s: v })} />`
        : html`<${NumberField} id="tc-move" label=${t("clock.move_h")} value=${custom.move_h} error=${e.per_move_s} step="0.5"
          onInput=${(v) => setCustom({ ...custom, move_h: v })} />`}
    </div>`}
    ${choice !== "custom" && e.kind && html`<small class="field-error" role="alert">${e.kind}</small>`}
  </fieldset>`;
}

export function CreateLobbyScreen() {
  const { games, error: gamesError } = useGames();
  const [gameId, setGameId] = useState(null);
  const [seats, setSeats] = useState(4);
  const [options, setOptions] = useState({});
  const [priv, setPriv] = useState(false);
  const [rated, setRated] = useState(false); // friendly by default, like the clock: a rated match is a choice
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [tcChoice, setTcChoice] = useState("none"); // friendly by default
  const [tcCustom, setTcCustom] = useState({ kind: "realtime", bank_min: 5, inc_s: 5, move_h: 24 });
  const [tcErrors, setTcErrors] = useState(null);
  const game = (games || []).find((g) => g.id === gameId);

  useEffect(() => { if (games && games.length && !gameId) choose(games[0]); }, [games]);

  function choose(g) {
    setGameId(g.id);
    setOptions(defaults(g));
    setSeats(Math.min(g.max_players, Math.max(g.min_players, gameInfo(g.id)?.default_players || g.min_players)));
  }

  async function submit(e) {
    e.preventDefault();
    setError("");
    const time_control = tcChoice === "custom" ? customControl(tcCustom.kind, tcCustom) : PRESETS.find((p) => p.id === tcChoice).tc;
    const mine = customErrors(time_control);
    setTcErrors(Object.keys(mine).length ? mine : null);
    if (Object.keys(mine).length) return;
    setBusy(true);
    try {
      const lobby = await post("/api/lobbies/", { game: gameId, options, num_seats: seats, private: priv, rated, time_control });
      navigate(`/lobby/${lobby.id}${lobby.private && lobby.invite_code ? "?code=" + encodeURIComponent(lobby.invite_code) : ""}`);
    } catch (err) {
      const tc = serverErrors(err.fields);
      setTcErrors(tc);
      if (tc) delete err.fields.time_control;
      setError(fieldErrors(err) || (tc ? "" : err.message));
      setBusy(false);
    }
  }

  const title = t("new.title");
  if (!games) return html`<${Page} title=${title}>${gamesError ? html`<${Notice}>${gamesError}<//>` : html`<${Spinner} />`}<//>`;
  const schema = game ? Object.entries(game.options_schema || {}).filter(([, s]) => !s.test_hook) : [];
  return html`<${Page} title=${title}>
    <form class="card form" onSubmit=${submit} aria-label=${t("new.form")}>
      <fieldset class="game-pick"><legend>${t("new.game")}</legend>
        ${games.map((g) => html`<label class=${"game-choice" + (g.id === gameId ? " on" : "")} data-game=${g.id}>
          <input type="radio" name="game" value=${g.id} checked=${g.id === gameId} onChange=${() => choose(g)} />
          <span class="game-choice-name">${gameName(games, g.id)}</span>
          <span class="muted">${t("new.players", { count: g.max_players, n: g.min_players === g.max_players ? g.min_players : `${g.min_players}–${g.max_players}` })}</span>
        </label>`)}
      </fieldset>
      ${game && GAMES_WITH_RULES.includes(game.id) && html`<p class="game-rules-link"><a class="btn btn-ghost" href=${"/rules/" + game.id} data-testid="game-rules">${
        t("home.how_to_play_label", { game: gameName(games, game.id) })}</a></p>`}
      ${game && game.min_players !== game.max_players && html`<div class="field"><span id="seats-label">${t("new.seats")}</span>
        <div class="stepper" role="group" aria-labelledby="seats-label">
          <button type="button" class="btn" aria-label=${t("new.fewer")} data-testid="seat-fewer" disabled=${seats <= game.min_players} onClick=${() => setSeats(seats - 1)}>−</button>
          <output aria-live="polite" data-testid="seat-count">${seats}</output>
          <button type="button" class="btn" aria-label=${t("new.more")} data-testid="seat-more" disabled=${seats >= game.max_players} onClick=${() => setSeats(seats + 1)}>+</button>
        </div></div>`}
      ${schema.length > 0 && html`<fieldset data-testid="rules"><legend>${t("new.rules")}</legend>
        ${schema.map(([name, spec]) => html`<${OptionField} key=${gameId + name} name=${name} spec=${spec} value=${options[name]}
          onChange=${(v) => setOptions({ ...options, [name]: v })} />`)}
      </fieldset>`}
      <${TimeControlPicker} choice=${tcChoice} setChoice=${(c) => { setTcChoice(c); setTcErrors(null); }}
        custom=${tcCustom} setCustom=${setTcCustom} errors=${tcErrors} />
      <div class="field field-check"><label><input type="checkbox" checked=${priv} onChange=${(e) => setPriv(e.target.checked)} />
        <span>${t("new.private")}</span></label></div>
      <div class="field field-check"><label><input type="checkbox" checked=${rated} data-testid="rated" onChange=${(e) => setRated(e.target.checked)} />
        <span>${t("lobby.rated_choice")}</span></label></div>
      <${Notice}>${error}<//>
      <button class="btn btn-primary btn-block" type="submit" disabled=${busy || !game}>${t("new.create")}</button>
    </form>
  <//>`;
}
