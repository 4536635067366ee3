import { pageArea } from "./area";

/** The account page: profile and password (the language is the header's switcher, remembered on the account). */
export const accountTexts = pageArea({
  en: {
    title: "Account",
    profile: "Profile",
    name: "Name",
    email: "E-mail address",
    agency: "Agency",
    noAgency: "Not a member of an agency",
    password: {
      title: "Change the password",
      intro: "Every other browser signed in to this account is signed out.",
      current: "Current password",
      new: "New password",
      submit: "Change the password",
      pending: "Changing…",
      done: "Your password is changed. Other sessions are signed out.",
    },
  },
  ro: {
    title: "Cont",
    profile: "Profil",
    name: "Nume",
    email: "Adresa de e-mail",
    agency: "Agenție",
    noAgency: "Nu ești membru al unei agenții",
    password: {
      title: "Schimbă parola",
      intro: "Orice alt browser autentificat în acest cont este deconectat.",
      current: "Parola actuală",
      new: "Parola nouă",
      submit: "Schimbă parola",
      pending: "Se schimbă…",
      done: "Parola a fost schimbată. Celelalte sesiuni au fost închise.",
    },
  },
});
