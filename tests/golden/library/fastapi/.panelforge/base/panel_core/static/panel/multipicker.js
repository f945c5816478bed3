// The many-to-many picker: a multiple select, or a text input of keys, inside
// [data-multipicker] becomes the chosen records (each with a Remove button) and a
// search-as-you-type box over the related resource's own JSON list
// (?search=…&per_page=20; a resource without search fields: by the key typed).
// Without this script the select (or the keys input and its "find…" link) works.
"use strict";

(() => {
  const text = (value) => {
    if (value === null || value === undefined) {
      return "";
    }
    if (value === true || value === false) {
      return value ? "Yes" : "No";
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

  const setUp = (picker, index) => {
    const select = picker.querySelector("select");
    const input = picker.querySelector("input[type=text]");
    const parts = JSON.parse(picker.dataset.display);
    const keyName = picker.dataset.key;
    const lookup = picker.dataset.lookup;
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
    const field = select || input;
    const chips = document.createElement("ul");
    chips.className = "picked-list";
    const box = document.createElement("input");
    const list = document.createElement("ul");
    box.type = "search";
    box.id = field.id;
    field.removeAttribute("id");
    box.autocomplete = "off";
    box.placeholder = lookup ? "Type a key to add" : "Type to search and add";
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-expanded", "false");
    box.setAttribute("aria-controls", `multipicker-${index}-list`);
    list.id = `multipicker-${index}-list`;
    list.className = "picker-list";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    picker.prepend(chips, box, list);
    let asked = 0;

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
        remove.textContent = "Remove";
        remove.setAttribute("aria-label", `Remove ${name}`);
        remove.addEventListener("click", () => {
          chosen.delete(key);
          sync();
        });
        chip.append(label, remove);
        chips.append(chip);
      }
    };

    const close = () => {
      list.hidden = true;
      box.setAttribute("aria-expanded", "false");
    };

    const show = (records) => {
      list.replaceChildren();
      records.forEach((record, i) => {
        const key = String(record[keyName]);
        const item = document.createElement("li");
        item.id = `multipicker-${index}-${i}`;
        item.setAttribute("role", "option");
        item.dataset.key = key;
        item.dataset.name = nameOf(parts, record, key);
        const first = document.createElement("span");
        first.textContent = item.dataset.name;
        const second = document.createElement("small");
        second.textContent = chosen.has(key) ? `#${key} (chosen)` : `#${key}`;
        item.append(first, second);
        list.append(item);
      });
      if (!records.length) {
        const none = document.createElement("li");
        none.className = "none";
        none.textContent = "No matching records";
        list.append(none);
      }
      list.hidden = false;
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
        return;
      }
      if (!response.ok) {
        show([]);
        return;
      }
      const found = await response.json();
      show(lookup ? [found] : found.data);
    };

    box.addEventListener("input", search);
    box.addEventListener("focus", () => {
      if (list.hidden) {
        search();
      }
    });
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        close();
      }
    });
    box.addEventListener("blur", close);
    list.addEventListener("mousedown", (event) => {
      const item = event.target.closest("[role=option]");
      if (item) {
        event.preventDefault();
        chosen.set(item.dataset.key, item.dataset.name);
        sync();
        box.value = "";
        close();
      }
    });
    sync();
  };

  document.querySelectorAll("[data-multipicker]").forEach(setUp);
})();
