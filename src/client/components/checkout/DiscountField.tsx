import { useState } from 'react';
import { discountCodeInput } from '../../../shared/schemas/discounts';
import { Button } from '../ui/Button';
import { TextField } from '../ui/fields';

// The checkout's "Discount code" field (docs/adr/0031-discount-rules-and-rounding.md): Apply asks the
// server's quote for the cart with the code; a refusal shows under the field in the shopper's words,
// and the applied code shows as a line of the summary with its Remove.

interface DiscountFieldProps {
  /** Why the code tried last cannot be used (the quote's or the placed order's refusal), else null. */
  refusal: string | null;
  /** True while the quote with the code is being priced. */
  applying: boolean;
  onApply: (code: string) => void;
}

export function DiscountField({ refusal, applying, onApply }: DiscountFieldProps) {
  const [text, setText] = useState('');
  // The field's own rules (empty, too long, other characters) are checked before asking the server.
  const [typingError, setTypingError] = useState<string | null>(null);
  const apply = () => {
    const parsed = discountCodeInput.safeParse(text);
    if (!parsed.success) {
      setTypingError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setTypingError(null);
    onApply(parsed.data);
  };
  return (
    <div className="mt-6 flex items-start gap-2" data-testid="discount-field">
      <TextField
        label="Discount code"
        className="min-w-0 flex-1 text-sm font-medium"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={text}
        error={typingError ?? refusal ?? undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          // Enter applies the code rather than submitting the order.
          if (event.key === 'Enter') {
            event.preventDefault();
            apply();
          }
        }}
      />
      <Button variant="secondary" className="mt-[1.625rem]" busy={applying} busyLabel="Applying..." onClick={apply}>
        Apply
      </Button>
    </div>
  );
}
