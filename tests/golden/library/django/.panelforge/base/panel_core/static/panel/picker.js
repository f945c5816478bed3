// The relation pickers. A key input ([data-picker]) becomes a search-as-you-type box
// over the related resource's own JSON list (?search=…&per_page=20); a many-to-many
// field ([data-multipicker]: a multiple select, or a text input of keys) becomes the
// chosen records, each with a Remove button, and the same box to add more. A resource
// without search fields is looked up by the key typed. Without this script the key
// input and its "find…" link, or the select, still work.
"use strict";

(() => {
  // The page's texts in its language, where they differ from the English written here
  // (panel_core.translation.SCRIPT_TEXTS); "%(name)s" takes values[name].
  const texts = JSON.parse(document.getElementById("panel-texts")?.textContent || "{}");
  const say = (english, values = {}) =>
    (texts[english] || english).replace(/%\((\w+)\)s/g, (_, name) => values[name]);

  // A record's name from its JSON fields, as the server's panel_core.labels names it.
  const text = (value) => {
    if (value === null || value === undefined) {
      return "";
    }
    if (value === true || value === false) {
      return value ? say("Yes") : say("No");
    }
    const shown = String(value);
    const instant = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(shown);
    return instant ? `${instant[1]} ${instant[2]}` : shown;
  };

  const nameOf = (parts, record, key) => {
    const name = parts
      .map(([literal, field]) => (field === null ? literal : text(record[field])))
      .join("");
    return name.trim() ? name : `#${key}`;
  };

  const optionNode = (id, name, key, note) => {
    const item = document.createElement("li");
    item.id = id;
    item.setAttribute("role", "option");
    item.dataset.key = key;
    item.dataset.name = name;
    const first = document.createElement("span");
    first.textContent = name;
    const second = document.createElement("small");
    second.textContent = note;
    item.append(first, second);
    return item;
  };

  // The search box both pickers share: a combobox taking over ``field``'s id and its
  // listbox of records, driven by the keyboard (arrows, Enter, Escape) and the mouse.
  // ``how.choose(key, name)`` takes a record, ``how.note(key)`` is an option's second
  // line and ``how.failed(show)`` answers a search the server refused.
  const searchBox = (picker, id, field, how) => {
    const parts = JSON.parse(picker.dataset.display);
    const keyName = picker.dataset.key;
    const lookup = picker.dataset.lookup;
    const box = document.createElement("input");
    const list = document.createElement("ul");
    const label = document.querySelector(`label[for="${field.id}"]`);
    box.type = "search";
    box.id = field.id;
    field.removeAttribute("id");
    box.autocomplete = "off";
    box.placeholder = how.placeholder;
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-expanded", "false");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-controls", `${id}-list`);
    list.id = `${id}-list`;
    list.className = "picker-list";
    list.setAttribute("role", "listbox");
    if (label) {
      list.setAttribute("aria-label", label.textContent.replace("*", "").trim());
    }
    list.hidden = true;
    let asked = 0;
    let active = -1;

    const close = () => {
      list.hidden = true;
      active = -1;
      box.setAttribute("aria-expanded", "false");
      box.removeAttribute("aria-activedescendant");
    };

    const choose = (item) => {
      how.choose(item.dataset.key, item.dataset.name);
      box.value = "";
      close();
    };

    const highlight = (next) => {
      const items = list.querySelectorAll("[role=option]");
      if (!items.length) {
        return;
      }
      active = (next + items.length) % items.length;
      items.forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
      box.setAttribute("aria-activedescendant", items[active].id);
      items[active].scrollIntoView({ block: "nearest" });
    };

    const show = (records) => {
      list.replaceChildren();
      records.forEach((record, i) => {
        const key = String(record[keyName]);
        const name = nameOf(parts, record, key);
        list.append(optionNode(`${id}-${i}`, name, key, how.note(key)));
      });
      if (!records.length) {
        const none = document.createElement("li");
        none.className = "none";
        none.textContent = say("No matching records");
        list.append(none);
      }
      list.hidden = false;
      active = -1;
      box.setAttribute("aria-expanded", "true");
    };

    const address = () =>
      lookup
        ? `${lookup}/${encodeURIComponent(box.value.trim())}`
        : `${picker.dataset.search}&search=${encodeURIComponent(box.value)}`;

    const search = async () => {
      const mine = ++asked;
      if (lookup && !box.value.trim()) {
        return;
      }
      const response = await fetch(address(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (mine !== asked) {
        return; // a later search is on its way
      }
      if (response.ok) {
        const found = await response.json();
        show(lookup ? [found] : found.data);
      } else if (lookup && response.status === 404) {
        show([]);
      } else {
        how.failed(show);
      }
    };

    box.addEventListener("input", () => {
      if (!box.value) {
        close();
        return;
      }
      search();
    });
    box.addEventListener("focus", () => {
      if (!box.value && list.hidden) {
        search();
      }
    });
    box.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Enter" && !list.hidden && active >= 0) {
        event.preventDefault();
        choose(list.querySelectorAll("[role=option]")[active]);
      } else if (event.key === "Escape") {
        close();
      }
    });
    list.addEventListener("mousedown", (event) => {
      const item = event.target.closest("[role=option]");
      if (item) {
        event.preventDefault();
        choose(item);
      }
    });
    box.addEventListener("blur", close);
    return { box, list };
  };

  const setUpOne = (picker, index) => {
    const input = picker.querySelector("input");
    const picked = picker.querySelector(".picked");
    const required = input.required;
    const { box, list } = searchBox(picker, `picker-${index}`, input, {
      placeholder: say(picker.dataset.lookup ? "Type a key" : "Type to search"),
      note: (key) => `#${key}`,
      choose: (key, name) => {
        input.value = key;
        picked.textContent = `${name} · #${key}`;
        box.required = false;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      },
      failed: () => {
        picked.textContent = say("Searching failed: type the key of a record");
        box.remove();
        list.remove();
        input.type = "text";
        input.id = box.id;
      },
    });
    box.required = required && !input.value;
    box.setAttribute("aria-describedby", picked.id);
    input.type = "hidden";
    if (!input.value) {
      picked.textContent = say("None chosen"); // no key to type: the box searches
    }
    picker.insertBefore(box, input);
    picker.insertBefore(list, picked);
    if (!required) {
      const clear = document.createElement("button");
      clear.type = "button";
      clear.className = "button small";
      clear.textContent = say("Clear");
      clear.addEventListener("click", () => {
        input.value = "";
        picked.textContent = say("None chosen");
      });
      picker.insertBefore(clear, picker.querySelector(".find"));
    }
  };

  const setUpMany = (picker, index) => {
    const select = picker.querySelector("select");
    const input = picker.querySelector("input[type=text]");
    const chosen = new Map();
    if (select) {
      for (const option of select.options) {
        if (option.selected) {
          chosen.set(option.value, option.textContent.replace(/ · #.*$/, ""));
        }
      }
      select.hidden = true;
    } else {
      for (const key of input.value.split(/[\s,]+/).filter(Boolean)) {
        chosen.set(key, `#${key}`);
      }
      input.type = "hidden";
      picker.querySelector(".picked")?.remove();
    }
    const chips = document.createElement("ul");
    chips.className = "picked-list";

    const sync = () => {
      if (select) {
        for (const key of chosen.keys()) {
          if (![...select.options].some((option) => option.value === key)) {
            select.add(new Option(chosen.get(key), key));
          }
        }
        for (const option of select.options) {
          option.selected = chosen.has(option.value);
        }
      } else {
        input.value = [...chosen.keys()].join(", ");
      }
      chips.replaceChildren();
      for (const [key, name] of chosen) {
        const chip = document.createElement("li");
        chip.dataset.key = key;
        const label = document.createElement("span");
        label.textContent = `${name} · #${key}`;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "button small";
        remove.textContent = say("Remove");
        remove.setAttribute("aria-label", say("Remove %(name)s", { name }));
        remove.addEventListener("click", () => {
          chosen.delete(key);
          sync();
        });
        chip.append(label, remove);
        chips.append(chip);
      }
    };

    const { box, list } = searchBox(picker, `multipicker-${index}`, select || input, {
      placeholder: say(picker.dataset.lookup ? "Type a key to add" : "Type to search and add"),
      note: (key) => (chosen.has(key) ? `#${key} (chosen)` : `#${key}`),
      choose: (key, name) => {
        chosen.set(key, name);
        sync();
      },
      failed: (show) => show([]),
    });
    picker.prepend(chips, box, list);
    sync();
  };

  document.querySelectorAll("[data-picker]").forEach(setUpOne);
  document.querySelectorAll("[data-multipicker]").forEach(setUpMany);
})();
