// Engine validation errors, routed to the control that sets the field they
// name (context), so the message shows next to the slider.

import { createContext, useContext } from 'react';
import type { ValidationError } from '../engine/types';
import { fieldMatches } from '../lab/controls';

export const FieldErrorsContext = createContext<readonly ValidationError[]>([]);

export function useFieldErrors(pattern: string | undefined): ValidationError[] {
  const all = useContext(FieldErrorsContext);
  if (!pattern) return [];
  return all.filter((e) => fieldMatches(pattern, e.field));
}
